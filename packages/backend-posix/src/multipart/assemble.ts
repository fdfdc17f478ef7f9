// Concatenates part files into one temp file. Full-object CRCs are normally combined from the
// part CRCs (full-object-crc.ts); `algorithms` names those that could not be, computed here
// over the bytes as they are copied. The copy goes through JS for now; copy_file_range or a
// reflink would keep the bytes in the kernel.

import { createReadStream } from 'node:fs';
import {
  type ChecksumAlgorithm,
  type Checksums,
  getChecksum,
  type Hasher,
  type RequestContext,
  s3ErrorFromErrno,
} from '@vgwrdma/s3-backend';
import type { PosixEnv } from '../env.js';
import { accountOwner } from '../fs/file-owner.js';
import { abortError } from '../fs/ingest.js';
import { abs } from '../fs/layout.js';
import { TempFile } from '../fs/temp-file.js';

const READ_CHUNK = 1 << 20;

interface AssembleSpec {
  bucket: string;
  parts: readonly { rel: string }[];
  algorithms: readonly ChecksumAlgorithm[];
}

interface Assembled {
  /** Holds the whole object; the caller sets attributes and publishes or discards it. */
  tmp: TempFile;
  size: number;
  checksums: Checksums;
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
    const hashers = spec.algorithms.map((a) => [a, getChecksum(a).create()] as [ChecksumAlgorithm, Hasher]);
    let size = 0;
    for (const part of spec.parts) {
      for await (const raw of createReadStream(abs(env, part.rel), { highWaterMark: READ_CHUNK })) {
        if (ctx.signal.aborted) throw abortError(ctx.signal);
        const chunk = raw as Buffer;
        for (const [, h] of hashers) h.update(chunk);
        await tmp.fh.write(chunk, 0, chunk.length, size);
        size += chunk.length;
      }
    }
    const checksums: Checksums = {};
    for (const [a, h] of hashers) checksums[a] = h.digest();
    return { tmp, size, checksums };
  } catch (err) {
    await tmp.discard();
    throw s3ErrorFromErrno(err) ?? err; // ENOSPC → InsufficientStorage, EDQUOT, EROFS
  }
}
