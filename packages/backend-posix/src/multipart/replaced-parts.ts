// Parts uploaded again under the same number. ListParts shows the part that finished last, but
// S3 lets CompleteMultipartUpload name the ETag of any finished upload of that number (two
// uploads of one part may race, and the client keeps the ETag of the one it saw finish). So
// before a part file is published over one with other bytes, the older file is kept beside it
// as `<number>.<md5 hex>`, and Complete finds a part by number and ETag. Kept parts live in the
// upload directory and go with it (Complete, Abort); ListParts and partNumbers() skip them.
import { link } from 'node:fs/promises';
import { normalizeETag, S3Error } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { isErrno } from '../fs/errors.js';
import { abs } from '../fs/layout.js';
import { ATTR } from '../meta/attr-names.js';
import { getText } from '../meta/store.js';
import { withKeyLock } from '../versioning/key-lock.js';

function keptRel(partRel: string, etag: string): string {
  return `${partRel}.${normalizeETag(etag).toLowerCase()}`;
}

/**
 * Publishes a part (`publish` renames the new file onto `partRel`) after keeping the part it
 * replaces, when that one has other bytes. Serialised per part within this process, so two
 * racing uploads of one number each keep what they replace.
 */
export async function publishPart(
  env: PosixEnv,
  partRel: string,
  etag: string,
  publish: () => Promise<void>,
): Promise<void> {
  await withKeyLock('\0part', partRel, async () => {
    const old = await getText(env.meta, partRel, ATTR.etag).catch(() => undefined);
    if (old !== undefined && normalizeETag(old) !== normalizeETag(etag)) await keep(env, partRel, old);
    await publish();
  });
}

async function keep(env: PosixEnv, partRel: string, etag: string): Promise<void> {
  const kept = keptRel(partRel, etag);
  try {
    await link(abs(env, partRel), abs(env, kept));
  } catch (err) {
    // EEXIST: the same bytes were kept before; ENOENT: completed, aborted or not there after all.
    if (isErrno(err, 'EEXIST', 'ENOENT')) return;
    throw err;
  }
  // A hard link shares the xattrs; a sidecar store keys attributes by path, so copy them.
  if (env.meta.kind === 'sidecar') {
    for (const attr of await env.meta.list(partRel)) {
      const value = await env.meta.get(partRel, attr);
      if (value !== undefined) await env.meta.set(kept, attr, value);
    }
  }
}

/**
 * The part file Complete uses for (number, etag): the current one when its ETag matches, else a
 * kept one with that ETag; InvalidPart when neither exists. `etagOf` reads a file's ETag.
 */
export async function findPart(
  uploadRel: string,
  part: { partNumber: number; etag: string },
  etagOf: (rel: string) => Promise<string | undefined>,
): Promise<string> {
  const current = `${uploadRel}/${part.partNumber}`;
  const want = normalizeETag(part.etag);
  for (const rel of [current, keptRel(current, part.etag)]) {
    const have = await etagOf(rel).catch(() => undefined);
    if (have !== undefined && normalizeETag(have) === want) return rel;
  }
  throw new S3Error('InvalidPart');
}
