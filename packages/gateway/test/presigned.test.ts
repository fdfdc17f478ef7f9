// Presigned URLs made by @aws-sdk/s3-request-presigner work against the gateway as plain HTTP.
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/harness.js';
import { MemoryBackend } from './support/memory-backend.js';

let gw: TestGateway;
let backend: MemoryBackend;
beforeAll(async () => {
  backend = new MemoryBackend();
  gw = await startGateway(backend);
  await gw.client.send(new CreateBucketCommand({ Bucket: 'presign' }));
});
afterAll(async () => gw.close());

it('accepts a presigned PUT and a presigned GET with a response override', async () => {
  const putUrl = await getSignedUrl(
    gw.client,
    new PutObjectCommand({ Bucket: 'presign', Key: 'dir/a b.txt' }),
    { expiresIn: 300 },
  );
  const put = await fetch(putUrl, { method: 'PUT', body: 'presigned body' });
  expect(put.status).toBe(200);
  const stored = backend.object('presign', 'dir/a b.txt');
  expect(Buffer.isBuffer(stored.data) && stored.data.toString()).toBe('presigned body');

  const getUrl = await getSignedUrl(
    gw.client,
    new GetObjectCommand({ Bucket: 'presign', Key: 'dir/a b.txt', ResponseContentType: 'text/x-override' }),
    { expiresIn: 300 },
  );
  const got = await fetch(getUrl);
  expect(got.status).toBe(200);
  expect(got.headers.get('content-type')).toBe('text/x-override');
  expect(await got.text()).toBe('presigned body');
});

it('refuses a presigned URL whose signature was tampered with', async () => {
  const url = new URL(
    await getSignedUrl(gw.client, new GetObjectCommand({ Bucket: 'presign', Key: 'dir/a b.txt' }), {
      expiresIn: 300,
    }),
  );
  url.searchParams.set('X-Amz-Signature', '0'.repeat(64));
  const res = await fetch(url);
  expect(res.status).toBe(403);
  expect(await res.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
});
