// What a write does to the versions of its key, in two steps around the data transfer:
// `planWrite` (before the body is read) refuses to replace a locked null version; `publishVersion`
// (after the new file is complete) archives the version it replaces, stamps the new one and
// publishes it, under the key's lock. Enabled: every write is a new ULID version and the old
// latest is archived. Suspended: the write is the `null` version; a versioned latest is
// archived, an old null one (latest or archived) is replaced. Unversioned: plain overwrite.
import type { VersioningStatus } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import type { TempFile } from '../fs/temp-file.js';
import { assertUnlocked, readBucketLock } from '../lock/object-lock.js';
import { ATTR } from '../meta/attr-names.js';
import { archiveCurrent, removeArchived } from './archive.js';
import { activeVersioning, readCurrent, readLockState } from './current.js';
import { withKeyLock } from './key-lock.js';
import { NULL_VERSION, newVersionId } from './version-id.js';
import { versionRel } from './version-store.js';

interface WritePlan {
  bucket: string;
  key: string;
  status: VersioningStatus | undefined;
}

/** Throws AccessDenied when the write would replace a locked version. */
export async function planWrite(env: PosixEnv, bucket: string, key: string): Promise<WritePlan> {
  const status = await activeVersioning(env, bucket);
  const plan = { bucket, key, status };
  if (status === 'Enabled') return plan; // a new version: nothing is replaced
  // Only a lock-enabled bucket holds locked versions: others skip the reads below.
  if (!(await readBucketLock(env, bucket))?.Enabled) return plan;
  const cur = await readCurrent(env, bucket, key);
  if (cur.kind === 'file' && !cur.isMarker && (status === undefined || cur.versionId === NULL_VERSION)) {
    assertUnlocked(cur.lock, false);
  }
  if (status === 'Suspended' && env.versions) {
    const rel = versionRel(bucket, key, NULL_VERSION);
    const lock = await readLockState(env.versions.meta, rel).catch(() => ({}));
    assertUnlocked(lock, false);
  }
  return plan;
}

/**
 * Archives what the new file replaces, sets its `version-id` and runs `publish`. Returns the new
 * version's id (`null` on suspended buckets, undefined on unversioned ones).
 */
export async function publishVersion(
  env: PosixEnv,
  plan: WritePlan,
  tmp: TempFile,
  publish: () => Promise<void>,
): Promise<string | undefined> {
  if (!plan.status || !env.versions) {
    await publish();
    return undefined;
  }
  return withKeyLock(plan.bucket, plan.key, async () => {
    const id = await beforePublish(env, plan, tmp);
    await publish();
    return id;
  });
}

async function beforePublish(env: PosixEnv, plan: WritePlan, tmp: TempFile): Promise<string | undefined> {
  const store = env.versions;
  if (!plan.status || !store) return undefined;
  const cur = await readCurrent(env, plan.bucket, plan.key);
  if (plan.status === 'Enabled') {
    if (cur.kind === 'file') await archiveCurrent(env, store, plan.bucket, plan.key, cur.versionId);
    const id = newVersionId();
    await tmp.setAttr(ATTR.versionId, id);
    return id;
  }
  if (cur.kind === 'file' && cur.versionId !== NULL_VERSION) {
    await archiveCurrent(env, store, plan.bucket, plan.key, cur.versionId);
  }
  await removeArchived(store, plan.bucket, plan.key, NULL_VERSION);
  return NULL_VERSION;
}
