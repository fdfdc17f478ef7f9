// Parts written where the object will be (issue 31): managed clients upload parts that all have
// one size but the last, so part n's bytes belong at (n - 1) × that size. Such a part is written
// straight into the upload's one assembly file (`<upload>/assembly`) at that offset, and a
// Complete whose parts are exactly those 1..N publishes the assembly file itself (truncate,
// attributes, rename): no byte is read or copied again. Anything else falls back to part files.
//
// On disk, inside the upload directory (docs/posix-layout.md):
//   stride       a symbolic link whose target is the part size, in decimal: made (atomically) by
//                the first part of at least 5 MiB to arrive; its size is the upload's stride
//   assembly     the sparse file the in-place parts are written into
//   <n>.slot     part n's record: created with O_EXCL before its bytes are written (so one upload
//                of n only ever writes its region), attrs etag, checksums / part-crc64nvme as a
//                part file's, and `vgwrdma-part-at` ({"at","size"}: set last, the part is done)
// A part goes in place only when its length is known, the stride is set and the part is no larger,
// and its slot is new: a second upload of n (a retry after a finished one, a race, another size),
// UploadPartCopy and a body of unknown length go to a part file as before, so a region of the
// assembly file is written by one upload only and a finished part's bytes are never overwritten
// (Complete may name the ETag of any finished upload of a number). A claimed slot's region is
// preallocated (fallocate; the file grows to the region's end) so concurrent parts do not serialize on block allocation
// under the file's lock. A failed in-place write removes
// its slot (a retry may take it again) and punches its region out (fallocate), so its partial
// bytes neither are referenced nor keep their space. A process
// killed mid-part leaves its slot unfinished: the retry goes to a part file, Complete copies.
// The names are not part numbers, so versitygw sees no part for a number written in place (its
// Complete answers InvalidPart, never a wrong object). VGWRDMA_INPLACE_PARTS=off turns this off;
// so does --nometa (no attribute to record a part in).
import { ftruncate as ftruncateCb, futimes as futimesCb } from 'node:fs';
import { readdir, readlink, stat, symlink, unlink, utimes } from 'node:fs/promises';
import { promisify } from 'node:util';
import { preallocateCall, punchHoleCall } from '@vgwrdma/native';
import type { PosixEnv } from '../env.js';
import { isErrno } from '../fs/errors.js';
import { FdFile } from '../fs/fd-file.js';
import type { FileOwner } from '../fs/file-owner.js';
import { abs } from '../fs/layout.js';
import { DEFAULT_FILE_PERMS, TempFile } from '../fs/temp-file.js';
import { type GatedFile, gated } from '../fs/write-gate.js';
import { ATTR } from '../meta/attr-names.js';
import { getText } from '../meta/store.js';
import { MIN_PART_SIZE } from './uploads.js';

export const ASSEMBLY = 'assembly';
const STRIDE = 'stride';
const SLOT_SUFFIX = '.slot';
const SLOT_RE = /^([1-9]\d{0,4})\.slot$/;
/** S3's largest object: a part that would end beyond it is not placed. */
const MAX_OBJECT = 5 * 1024 ** 4;
const ftruncate = promisify(ftruncateCb);
const futimes = promisify(futimesCb);

export function inPlaceEnabled(env: PosixEnv): boolean {
  return env.meta.kind !== 'none' && process.env.VGWRDMA_INPLACE_PARTS !== 'off';
}

export function slotRel(uploadRel: string, n: number): string {
  return `${uploadRel}/${n}${SLOT_SUFFIX}`;
}

/** Where a finished in-place part's bytes are. */
export interface PlacedPart {
  at: number;
  size: number;
}

/** The upload's stride, if one was set. */
export async function uploadStride(env: PosixEnv, uploadRel: string): Promise<number | undefined> {
  try {
    const n = Number(await readlink(abs(env, `${uploadRel}/${STRIDE}`)));
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** The upload's stride, setting it to `size` when none is set and `size` may be one. */
async function strideFor(env: PosixEnv, uploadRel: string, size: number): Promise<number | undefined> {
  const link = abs(env, `${uploadRel}/${STRIDE}`);
  try {
    return Number(await readlink(link));
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) throw err;
  }
  if (size < MIN_PART_SIZE) return undefined;
  try {
    await symlink(String(size), link);
    return size;
  } catch (err) {
    if (isErrno(err, 'EEXIST')) return Number(await readlink(link));
    throw err; // ENOENT: the upload is gone
  }
}

/** A claimed slot: the region of the assembly file this upload of part n alone writes. */
export interface Slot {
  readonly rel: string;
  readonly at: number;
  /** The assembly file, open for writing. */
  readonly file: FdFile;
  /** `file` with its writes through the assembly file's write gate (write-gate.ts). */
  readonly writer: GatedFile;
  /** After a failure: gives the slot up (a retry may take it) and closes the file. */
  release(): Promise<void>;
}

/**
 * Claims part n's slot for a body of `size` bytes, or undefined when the part must go to a part
 * file (no stride yet and too small to set one, larger than the stride, a slot already taken).
 * ENOENT (the upload gone) is the caller's to answer.
 */
export async function claimSlot(
  env: PosixEnv,
  uploadRel: string,
  n: number,
  size: number,
  owner: FileOwner | undefined,
): Promise<Slot | undefined> {
  const stride = await strideFor(env, uploadRel, size);
  if (stride === undefined || !(stride > 0) || size > stride) return undefined;
  const at = (n - 1) * stride;
  if (at + size > MAX_OBJECT) return undefined;
  const rel = slotRel(uploadRel, n);
  const slotPath = abs(env, rel);
  try {
    await (await FdFile.open(slotPath, 'wx', env.filePerms)).close();
  } catch (err) {
    if (isErrno(err, 'EEXIST')) return undefined;
    throw err;
  }
  let file: FdFile;
  try {
    file = await openAssembly(env, `${uploadRel}/${ASSEMBLY}`, owner);
  } catch (err) {
    await unlink(slotPath).catch(() => undefined);
    throw err;
  }
  // The region's blocks reserved before its bytes come (best effort: a filesystem without
  // fallocate, or a full one, writes as before, and a full one fails the write as before). A
  // buffered write holds the file's lock while it allocates, so without this the parts writing
  // the assembly at once wait on each other's allocations (docs/performance.md).
  await Promise.resolve()
    .then(() => preallocateCall()(file.fd, at, size))
    .catch(() => -1);
  const writer = gated(abs(env, `${uploadRel}/${ASSEMBLY}`), file);
  return {
    rel,
    at,
    file,
    writer,
    release: async () => {
      writer.release();
      // The failed write's bytes keep their space until the upload ends otherwise: give it back
      // (best effort: a filesystem without hole punching keeps it until Complete or Abort).
      await Promise.resolve()
        .then(() => punchHoleCall()(file.fd, at, size))
        .catch(() => undefined);
      await file.close().catch(() => undefined);
      await unlink(slotPath).catch(() => undefined);
      await env.meta.dropped(rel).catch(() => undefined);
    },
  };
}

/** Opens the assembly file for writing, creating it (mode and owner as a temp file's) if absent. */
async function openAssembly(env: PosixEnv, rel: string, owner: FileOwner | undefined): Promise<FdFile> {
  const path = abs(env, rel);
  let fh: FdFile;
  try {
    fh = await FdFile.open(path, 'wx', env.filePerms);
  } catch (err) {
    if (!isErrno(err, 'EEXIST')) throw err;
    return FdFile.open(path, 'r+', env.filePerms);
  }
  try {
    if (env.filePerms !== DEFAULT_FILE_PERMS) await fh.chmod(env.filePerms);
    if (owner) await fh.chown(owner.uid, owner.gid);
  } catch (err) {
    await fh.close();
    throw err;
  }
  return fh;
}

/**
 * Marks a slot's part done: its attributes (etag and checksums, as a part file carries), then its
 * place, last. ENOENT: the upload was completed or aborted meanwhile.
 */
export async function finishSlot(
  env: PosixEnv,
  slot: Slot,
  size: number,
  attrs: readonly [string, string][],
): Promise<Date> {
  const path = abs(env, slot.rel);
  for (const [attr, value] of attrs) await env.meta.set(slot.rel, attr, value);
  const now = new Date();
  await utimes(path, now, now); // the part's LastModified: when it finished, as a part file's
  const placed: PlacedPart = { at: slot.at, size };
  await env.meta.set(slot.rel, ATTR.partAt, JSON.stringify(placed));
  // A sidecar store writes attributes beside the tree: the slot itself must still be there.
  await stat(path);
  return now;
}

/** A slot's place once its part is done; undefined while it is written, or when there is none. */
export async function placedPart(env: PosixEnv, rel: string): Promise<PlacedPart | undefined> {
  const raw = await getText(env.meta, rel, ATTR.partAt).catch(() => undefined);
  if (raw === undefined) return undefined;
  const p = JSON.parse(raw) as PlacedPart;
  return Number.isSafeInteger(p.at) && Number.isSafeInteger(p.size) ? p : undefined;
}

/** Part numbers that have a slot (done or still being written), ascending. */
export async function slotNumbers(env: PosixEnv, uploadRel: string): Promise<number[]> {
  const names = await readdir(abs(env, uploadRel));
  const out: number[] = [];
  for (const name of names) {
    const m = SLOT_RE.exec(name);
    if (m) out.push(Number(m[1]));
  }
  return out.sort((a, b) => a - b);
}

/**
 * Takes the claimed upload's assembly file as the object's temp file, cut to `size` bytes, its
 * mtime now (as an assembled file's would be) and owned as Complete's own temp file would be.
 * discard() leaves it in the upload directory.
 */
export async function adoptAssembly(
  env: PosixEnv,
  claimed: string,
  size: number,
  owner: FileOwner | undefined,
): Promise<TempFile> {
  const rel = `${claimed}/${ASSEMBLY}`;
  const path = abs(env, rel);
  const fh = await FdFile.open(path, 'r+', env.filePerms);
  const tmp = TempFile.adopt(env, env.meta, rel, fh, owner);
  try {
    // Beyond `size`: only bytes of failed writes whose slots were given up (Complete takes this
    // path only when no other slot exists), so nothing is lost if this Complete fails later.
    if ((await stat(path)).size !== size) await ftruncate(fh.fd, size);
    if (owner) await fh.chown(owner.uid, owner.gid);
    const now = new Date();
    await futimes(fh.fd, now, now);
    fh.wrote(0, size);
  } catch (err) {
    await tmp.discard();
    throw err;
  }
  return tmp;
}
