// Object lock rules (S3 semantics, versitygw's stored shapes): a version under legal hold, or
// retained until a future date, cannot be deleted or overwritten. GOVERNANCE retention yields
// to `x-amz-bypass-governance-retention`; COMPLIANCE yields to nothing. Retention and legal
// hold can only be set in a bucket whose `bucket-lock` configuration is enabled.
import {
  type BucketLockConfig,
  type ObjectAttributesInput,
  type ObjectRetention,
  S3Error,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { ATTR } from '../meta/attr-names.js';
import { getJson } from '../meta/store.js';

export interface LockState {
  retention?: ObjectRetention | undefined;
  legalHold?: boolean | undefined;
}

const DAY_MS = 24 * 3600 * 1000;

function lockDenied(): S3Error {
  return new S3Error('AccessDenied', 'Access Denied because object protected by object lock.');
}

/** Whether retention is still in force at `now`. */
function isRetained(r: ObjectRetention | undefined, now = Date.now()): boolean {
  if (!r) return false;
  const until = Date.parse(r.RetainUntilDate);
  return Number.isFinite(until) && until > now;
}

/** Throws AccessDenied when a version with this lock state may not be removed or replaced. */
export function assertUnlocked(state: LockState, bypassGovernance: boolean, now = Date.now()): void {
  if (state.legalHold) throw lockDenied();
  if (!isRetained(state.retention, now)) return;
  if (state.retention?.Mode === 'GOVERNANCE' && bypassGovernance) return;
  throw lockDenied();
}

/** The bucket's lock configuration, or undefined when it has none. */
export async function readBucketLock(env: PosixEnv, bucket: string): Promise<BucketLockConfig | undefined> {
  // A missing bucket has no lock; the caller's bucket check answers NoSuchBucket.
  return getJson<BucketLockConfig>(env.meta, bucket, ATTR.bucketLock).catch(() => undefined);
}

function missingLockConfig(): S3Error {
  return new S3Error('InvalidRequest', 'Bucket is missing Object Lock Configuration');
}

/** Retention and legal hold need an enabled bucket lock configuration. */
export async function requireBucketLock(env: PosixEnv, bucket: string): Promise<BucketLockConfig> {
  const lock = await readBucketLock(env, bucket);
  if (!lock?.Enabled) throw missingLockConfig();
  return lock;
}

export function assertFutureDate(r: ObjectRetention, now = Date.now()): void {
  if (!isRetained(r, now))
    throw S3Error.custom('InvalidArgument', 'The retain until date must be in the future!');
}

/**
 * The lock attributes a new version is created with: the ones asked for (checked against the
 * bucket), else the bucket's default retention counted from now.
 */
export async function lockForNewObject(
  env: PosixEnv,
  bucket: string,
  input: ObjectAttributesInput,
  now = Date.now(),
): Promise<Pick<ObjectAttributesInput, 'retention' | 'legalHold'>> {
  const asked = input.retention !== undefined || input.legalHold !== undefined;
  const lock = await readBucketLock(env, bucket);
  if (asked && !lock?.Enabled) throw missingLockConfig();
  if (input.retention) assertFutureDate(input.retention, now);
  const out: Pick<ObjectAttributesInput, 'retention' | 'legalHold'> = {};
  if (input.legalHold !== undefined) out.legalHold = input.legalHold;
  if (input.retention) out.retention = input.retention;
  else if (lock?.Enabled && lock.DefaultRetention) {
    const d = lock.DefaultRetention;
    const until = new Date(now);
    if (d.Years) until.setUTCFullYear(until.getUTCFullYear() + d.Years);
    else until.setTime(now + (d.Days ?? 0) * DAY_MS);
    out.retention = { Mode: d.Mode, RetainUntilDate: until.toISOString() };
  }
  return out;
}

/**
 * A retention change on a locked version: COMPLIANCE may only be extended; GOVERNANCE may be
 * shortened, removed or changed in mode only with the bypass header.
 */
export function assertRetentionChange(
  current: ObjectRetention | undefined,
  next: ObjectRetention,
  bypassGovernance: boolean,
  now = Date.now(),
): void {
  if (!current || !isRetained(current, now)) return;
  const extends_ = Date.parse(next.RetainUntilDate) >= Date.parse(current.RetainUntilDate);
  if (current.Mode === 'COMPLIANCE') {
    if (next.Mode !== 'COMPLIANCE' || !extends_) throw lockDenied();
    return;
  }
  if ((next.Mode !== current.Mode || !extends_) && !bypassGovernance) throw lockDenied();
}
