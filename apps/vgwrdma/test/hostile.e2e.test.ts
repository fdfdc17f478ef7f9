// Hostile input against the BUILT gateway process (posix root), with the AWS SDK: an unsigned
// x-amz-* header slipped in after signing, a presigned PUT used with an unsigned
// x-amz-copy-source, SignedHeaders naming an Object.prototype member, a signed query whose %2B is
// sent as '+', a presigned URL past its expiry, response-* overrides that would split a header,
// a DeleteObjects naming a 3 MiB key, admin PATCH /constructor, and symlinks planted inside the
// root that point outside it. Package-level tests cover each of these exhaustively
// (packages/gateway/test/sigv4-tamper.test.ts, hostile-http.test.ts, presigned.test.ts,
// backend-posix traversal); this file proves the shipped app enforces them.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { adminRequest, ROOT_CREDENTIALS } from '@vgwrdma/test-kit';
import { expectS3Error, sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import { expect, it } from 'vitest';
import { afterSigning } from './helpers/after-signing.js';

const SECRET = 'next to the root: never served';
const bucket = 'hostile';
const test = sceneTest({ buckets: [bucket] });
const the = sceneRef(test);
/** A folder outside the root (the scene's own, removed with it). */
const outside = (): string => the.path('outside');

test.beforeAll(async () => {
  await mkdir(outside());
  await writeFile(join(outside(), 'secret'), SECRET);
});

it('refuses an x-amz-* header added after signing (AccessDenied), and stores nothing', async () => {
  const cmd = new PutObjectCommand({ Bucket: bucket, Key: 'unsigned', Body: 'x' });
  afterSigning(cmd, (headers) => {
    headers['x-amz-acl'] = 'public-read';
  });
  await expectS3Error(the.s3.send(cmd), 'AccessDenied');
  await expectS3Error(the.s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'unsigned' })), 'NoSuchKey');
});

it('refuses a presigned PUT used with an unsigned x-amz-copy-source: nothing copied', async () => {
  await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'victim', Body: 'the victim' }));
  const url = await getSignedUrl(the.s3, new PutObjectCommand({ Bucket: bucket, Key: 'inbox' }), {
    expiresIn: 300,
  });
  const res = await fetch(url, { method: 'PUT', headers: { 'x-amz-copy-source': `/${bucket}/victim` } });
  const body = await res.text();
  expect(res.status).toBe(403);
  expect(body).toContain('<Code>AccessDenied</Code>');
  expect(body).toContain('<HeadersNotSigned>x-amz-copy-source</HeadersNotSigned>');
  await expectS3Error(the.s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'inbox' })), 'NoSuchKey');
});

it('answers SignedHeaders naming constructor or __proto__ with SignatureDoesNotMatch, not a 500', async () => {
  for (const name of ['constructor', '__proto__']) {
    const cmd = new GetObjectCommand({ Bucket: bucket, Key: 'victim' });
    afterSigning(cmd, (h) => {
      h.authorization = String(h.authorization).replace('SignedHeaders=', `SignedHeaders=${name};`);
    });
    await expectS3Error(the.s3.send(cmd), 'SignatureDoesNotMatch');
  }
});

it('refuses response-* overrides that cannot be sent as a header (CR LF, beyond Latin-1): InvalidArgument', async () => {
  await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'plain', Body: 'p' }));
  const injected = new GetObjectCommand({
    Bucket: bucket,
    Key: 'plain',
    ResponseContentDisposition: 'attachment\r\nSet-Cookie: session=stolen',
  });
  await expectS3Error(the.s3.send(injected), 'InvalidArgument');
  const wide = new GetObjectCommand({ Bucket: bucket, Key: 'plain', ResponseContentType: 'text/\u20ac' });
  await expectS3Error(the.s3.send(wide), 'InvalidArgument');
});

it('refuses a DeleteObjects key over 1024 bytes with KeyTooLongError, without echoing it', async () => {
  const Key = 'k'.repeat(3 * 1024 * 1024);
  const err = await expectS3Error(
    the.s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: [{ Key }] } })),
    'KeyTooLongError',
  );
  expect(Number(err.$response?.headers?.['content-length'])).toBeLessThan(4096);
});

it('answers admin PATCH /constructor with an S3 error document, not a plain-text 500', async () => {
  const res = await adminRequest(the.gw.url, ROOT_CREDENTIALS, 'constructor');
  expect(res.status).toBe(501);
  expect(res.text).toContain('<Code>NotImplemented</Code>');
});

it("refuses a presigned query whose signed %2B was sent as '+'", async () => {
  const url = await getSignedUrl(the.s3, new ListObjectsV2Command({ Bucket: bucket, Prefix: 'a+b' }), {
    expiresIn: 300,
  });
  expect(url).toContain('a%2Bb');
  expect((await fetch(url)).status).toBe(200);
  const res = await fetch(url.replace('a%2Bb', 'a+b'));
  expect(res.status).toBe(403);
  expect(await res.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
});

it('refuses a presigned URL past its expiry', async () => {
  await the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'k', Body: 'v' }));
  const url = await getSignedUrl(the.s3, new GetObjectCommand({ Bucket: bucket, Key: 'k' }), {
    expiresIn: 1,
    signingDate: new Date(Date.now() - 60_000),
  });
  const res = await fetch(url);
  expect(res.status).toBe(403);
  expect(await res.text()).toContain('<Message>Request has expired.</Message>');
});

it('does not serve or overwrite a file outside the root through a symlink inside it', async () => {
  await symlink(join(outside(), 'secret'), join(the.gw.root, bucket, 'link'));
  await symlink(outside(), join(the.gw.root, bucket, 'linkdir'));
  await expectS3Error(the.s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'link' })), 'AccessDenied');
  await expectS3Error(
    the.s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'linkdir/secret' })),
    'AccessDenied',
  );
  await expectS3Error(
    the.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'linkdir/secret', Body: 'overwritten' })),
    'AccessDenied',
  );
  expect(await readFile(join(outside(), 'secret'), 'utf8')).toBe(SECRET);
});
