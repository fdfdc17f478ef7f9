// Attributes that do not fit the filesystem's xattr space (xattr-fit.ts): a full disk stays 507,
// a too-large value is a 400, and a multipart object whose part list does not fit is completed
// without its mp-metadata instead of failing.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { MD5_ETAG } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import type { PosixEnv } from '../src/env.js';
import { ATTR } from '../src/meta/attr-names.js';
import type { MetaStore } from '../src/meta/store.js';
import { attrDoesNotFit, attrsTooLarge, isAttrsTooLarge } from '../src/meta/xattr-fit.js';
import { completeMultipartUpload } from '../src/multipart/complete.js';
import { uploadPart } from '../src/multipart/parts.js';
import { createMultipartUpload } from '../src/multipart/uploads.js';
import { openStore } from '../src/open.js';
import { createBucket } from '../src/ops/buckets.js';
import { putObject } from '../src/ops/put-copy.js';
import { getObject, headObject } from '../src/ops/read-object.js';
import { acl, ctx, OWNER, readAll } from './helpers.js';
import { tempDirEach } from './temp-dir-each.js';

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

/**
 * The posix ops' env on a store in `dir`, with a bucket 'bkt': the real store, except that the
 * attribute `refused()` names answers as a full xattr block would.
 */
async function refusingEnv(dir: string, refused: () => string | undefined) {
  const opened = await openStore({ root: join(dir, 'root') });
  const meta: MetaStore = Object.assign(Object.create(opened.meta) as MetaStore, {
    set: (rel: string, attr: string, value: Buffer | string, fd?: number) =>
      attr === refused()
        ? Promise.reject(attrsTooLarge(errno('ENOSPC')))
        : opened.meta.set(rel, attr, value, fd),
  });
  const env: PosixEnv = {
    root: opened.root,
    meta,
    dirPerms: 0o755,
    filePerms: 0o644,
    region: 'us-east-1',
    etagMode: MD5_ETAG,
  };
  await createBucket(env, { bucket: 'bkt', owner: OWNER, acl: acl() });
  return env;
}

describe('attrDoesNotFit', () => {
  let dir: string;
  tempDirEach('attr-fit-', async (d) => {
    dir = d;
    await writeFile(join(dir, 'f'), '');
  });

  it('E2BIG always, ENOSPC only while the filesystem has free blocks, nothing else', () => {
    expect(attrDoesNotFit(errno('E2BIG'), join(dir, 'f'))).toBe(true);
    expect(attrDoesNotFit(errno('ENOSPC'), join(dir, 'f'))).toBe(true); // this test's disk is not full
    expect(attrDoesNotFit(errno('ENOSPC'), join(dir, 'missing'))).toBe(false); // unknown: stays 507
    expect(attrDoesNotFit(errno('EIO'), join(dir, 'f'))).toBe(false);
    const answer = attrsTooLarge(errno('ENOSPC'));
    expect([answer.code, answer.status, isAttrsTooLarge(answer)]).toEqual(['MetadataTooLarge', 400, true]);
  });
});

describe('multipart complete where mp-metadata does not fit', () => {
  let dir: string;
  tempDirEach('attr-fit-mp-', (d) => {
    dir = d;
  });

  it('publishes the object without it; any other attribute that does not fit fails the complete', async () => {
    let refuse: string | undefined = ATTR.mpMetadata;
    const env = await refusingEnv(dir, () => refuse);
    const complete = async (key: string) => {
      const up = await createMultipartUpload(env, { bucket: 'bkt', key });
      const part = await uploadPart(env, ctx(), {
        bucket: 'bkt',
        key,
        uploadId: up.uploadId,
        partNumber: 1,
        body: Readable.from([Buffer.from('only part')]),
      });
      return completeMultipartUpload(env, ctx(), {
        bucket: 'bkt',
        key,
        uploadId: up.uploadId,
        parts: [{ partNumber: 1, etag: part.etag }],
      });
    };
    const done = await complete('big');
    const head = await headObject(env, { bucket: 'bkt', key: 'big' });
    expect([head.etag, head.partsCount]).toEqual([done.etag, undefined]);
    expect((await readAll((await getObject(env, { bucket: 'bkt', key: 'big' })).body)).toString()).toBe(
      'only part',
    );

    refuse = ATTR.etag;
    await expect(complete('other')).rejects.toMatchObject({ code: 'MetadataTooLarge' });
    await expect(headObject(env, { bucket: 'bkt', key: 'other' })).rejects.toMatchObject({
      code: 'NoSuchKey',
    });
  });
});

describe('a folder object whose attributes do not fit', () => {
  let dir: string;
  tempDirEach('attr-fit-folder-', (d) => {
    dir = d;
  });

  it('is refused with nothing changed: a re-put keeps the old attributes, a new one leaves no directory', async () => {
    const env = await refusingEnv(dir, () => ATTR.metadata);
    const folder = (key: string, extra: object) =>
      putObject(env, ctx(), { bucket: 'bkt', key, body: Readable.from([]), contentLength: 0, ...extra });
    await folder('old/', { contentType: 'keep/me' });
    const was = await headObject(env, { bucket: 'bkt', key: 'old/' });

    await expect(folder('old/', { contentType: 'new/type', metadata: { m: 'v' } })).rejects.toMatchObject({
      code: 'MetadataTooLarge',
    });
    const now = await headObject(env, { bucket: 'bkt', key: 'old/' });
    expect([now.contentType, now.etag]).toEqual(['keep/me', was.etag]);

    await expect(folder('new/', { metadata: { m: 'v' } })).rejects.toMatchObject({
      code: 'MetadataTooLarge',
    });
    await expect(headObject(env, { bucket: 'bkt', key: 'new/' })).rejects.toMatchObject({
      code: 'NoSuchKey',
    });
    expect(await readdir(join(env.root, 'bkt'))).toEqual(['old']);
  });
});
