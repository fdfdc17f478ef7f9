// Concatenates part files into one temp file. Full-object CRCs are normally combined from the
// part CRCs (full-object-crc.ts), so the bytes need not pass through JavaScript: each part goes
// into place by copy_file_range (fs/copy-range.ts: page-cache copy on ext4 and tmpfs, a reflink
// on XFS and btrfs), COPIES_AT_ONCE parts at once (as many as libuv's pool has threads), each
// at its own offset. A file system that cannot (EXDEV, EOPNOTSUPP, ENOSYS, …) gets the rest of
// that part and every later one by read/write through JS. `algorithms` names the checksums that
// could not be combined: then every byte must be hashed anyway, so the whole object is copied
// through JS, hashing as it goes. A part written in place (in-place.ts) is read from the upload's
// assembly file at its offset (`at`).

import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import {
  type ChecksumAlgorithm,
  type Checksums,
  getChecksum,
  type Hasher,
  type RequestContext,
  s3ErrorFromErrno,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { copyRange } from '../fs/copy-range.js';
import { accountOwner } from '../fs/file-owner.js';
import { abortError } from '../fs/ingest.js';
import { abs } from '../fs/layout.js';
import { TempFile } from '../fs/temp-file.js';

const READ_CHUNK = 1 << 20;
/**
 * Parts copied in the kernel at once: one per libuv pool thread (each copy holds one while it
 * runs; more would only queue), 4 to 16. On ext4 the copy is a page-cache copy on the calling
 * thread, so a 4 GiB object took 1.6–2.2 s of a managed upload with 4 at once on the 16-core host.
 */
const COPIES_AT_ONCE = Math.min(16, Math.max(4, Number(process.env.UV_THREADPOOL_SIZE) || 4));

interface AssembleSpec {
  bucket: string;
  /** Each part's bytes: `size` of them at `at` (default 0) in the file `rel`. */
  parts: readonly { rel: string; at?: number; size: number }[];
  algorithms: readonly ChecksumAlgorithm[];
}

/**
 * How the bytes were put together: 'kernel' (copy_file_range throughout), 'js', 'mixed', or
 * 'in-place' (no copy: the parts were written where the object is, complete.ts).
 */
export type AssembleMethod = 'kernel' | 'js' | 'mixed' | 'in-place';

interface Assembled {
  /** Holds the whole object; the caller sets attributes and publishes or discards it. */
  tmp: TempFile;
  size: number;
  checksums: Checksums;
  method: AssembleMethod;
}

export async function assemble(env: PosixEnv, ctx: RequestContext, spec: AssembleSpec): Promise<Assembled> {
  const tmp = await TempFile.create(
    env,
    env.meta,
    spec.bucket,
    env.dirPerms,
    env.filePerms,
    accountOwner(env.chown, ctx.account),
  );
  try {
    if (spec.algorithms.length > 0) {
      const { size, checksums } = await copyHashing(env, ctx, tmp, spec);
      return { tmp, size, checksums, method: 'js' };
    }
    let size = 0;
    const placed = spec.parts.map((p) => {
      const to = size;
      size += p.size;
      return { ...p, to };
    });
    const method = await copyParts(env, ctx, tmp, placed);
    return { tmp, size, checksums: {}, method };
  } catch (err) {
    await tmp.discard();
    throw s3ErrorFromErrno(err) ?? err; // ENOSPC → InsufficientStorage, EDQUOT, EROFS
  }
}

/** A part's bytes and where they go in the object. */
export type PartCopy = AssembleSpec['parts'][number] & { to: number };

/**
 * Every part to its offset `to` in `tmp`, in the kernel where the file system allows it (also
 * used by complete.ts to fill the few parts of an in-place upload that are not in place).
 */
export async function copyParts(
  env: PosixEnv,
  ctx: RequestContext,
  tmp: TempFile,
  parts: readonly PartCopy[],
): Promise<AssembleMethod> {
  let kernel = true; // false once the file system declined: the rest goes through JS
  let inKernel = 0;
  let inJs = 0;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < parts.length; i = next++) {
      if (ctx.signal.aborted) throw abortError(ctx.signal);
      const part = parts[i] as PartCopy;
      const at = part.to;
      const src = await open(abs(env, part.rel), 'r');
      try {
        let done = 0;
        const from = part.at ?? 0;
        if (kernel && part.size > 0) {
          const r = await copyRange(src.fd, from, tmp.fd, at, part.size);
          done = r.done;
          if (!r.copied) kernel = false;
        }
        if (done < part.size) await copyThroughJs(ctx, src, from, done, part.size, tmp, at);
        if (done > 0) inKernel++;
        if (done < part.size) inJs++;
      } finally {
        await src.close();
      }
      tmp.fh.wrote(at, part.size);
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPIES_AT_ONCE, parts.length) }, worker));
  return inJs === 0 ? 'kernel' : inKernel === 0 ? 'js' : 'mixed';
}

/** Bytes [from, size) of the part at `srcAt` in `src` into `tmp` at `at + from`, by read/write. */
async function copyThroughJs(
  ctx: RequestContext,
  src: FileHandle,
  srcAt: number,
  from: number,
  size: number,
  tmp: TempFile,
  at: number,
): Promise<void> {
  const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, size - from));
  for (let pos = from; pos < size; ) {
    if (ctx.signal.aborted) throw abortError(ctx.signal);
    const { bytesRead } = await src.read(buf, 0, Math.min(buf.length, size - pos), srcAt + pos);
    if (bytesRead === 0) throw new Error(`part changed while it was assembled: ${pos} of ${size} bytes`);
    await tmp.fh.write(buf, 0, bytesRead, at + pos);
    pos += bytesRead;
  }
}

/** The parts in order through JS, hashing every byte with `spec.algorithms`. */
async function copyHashing(
  env: PosixEnv,
  ctx: RequestContext,
  tmp: TempFile,
  spec: AssembleSpec,
): Promise<{ size: number; checksums: Checksums }> {
  const hashers = spec.algorithms.map((a) => [a, getChecksum(a).create()] as [ChecksumAlgorithm, Hasher]);
  let size = 0;
  for (const part of spec.parts) {
    if (part.size === 0) continue;
    const start = part.at ?? 0;
    const range = { highWaterMark: READ_CHUNK, start, end: start + part.size - 1 };
    for await (const raw of createReadStream(abs(env, part.rel), range)) {
      if (ctx.signal.aborted) throw abortError(ctx.signal);
      const chunk = raw as Buffer;
      for (const [, h] of hashers) h.update(chunk);
      await tmp.fh.write(chunk, 0, chunk.length, size);
      size += chunk.length;
    }
  }
  const checksums: Checksums = {};
  for (const [a, h] of hashers) checksums[a] = h.digest();
  return { size, checksums };
}
