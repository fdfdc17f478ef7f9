// Presigned URLs made by @aws-sdk/s3-request-presigner work against the gateway as plain HTTP,
// and whoever holds one cannot add what the signer did not sign: an unsigned x-amz-* header
// (x-amz-copy-source turning a PUT into a copy with the signer's authority, metadata, tags, ACL,
// lock and bypass headers, the RDMA token) or the legacy X-CuObj-* RDMA trio (must-sign as the
// RDMA plugin declares it: support/x-cuobj-signing.ts) is refused with 403 AccessDenied and
// nothing is stored.
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorOf, startGateway, type TestGateway } from './support/harness.js';
import { X_CUOBJ_SIGNING } from './support/x-cuobj-signing.js';

let gw: TestGateway;
let backend: MemoryBackend;
beforeAll(async () => {
  backend = new MemoryBackend();
  gw = await startGateway(backend, { plugins: [X_CUOBJ_SIGNING] });
  await gw.client.send(new CreateBucketCommand({ Bucket: 'presign' }));
  await gw.client.send(new CreateBucketCommand({ Bucket: 'victim' }));
  await gw.client.send(new PutObjectCommand({ Bucket: 'victim', Key: 'secret', Body: 'the secret' }));
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

const stored = (bucket: string, key: string) => backend.bucket(bucket).objects.has(key);
const putUrl = (Key: string) =>
  getSignedUrl(gw.client, new PutObjectCommand({ Bucket: 'presign', Key }), { expiresIn: 300 });
const TOKEN = `${'0'.repeat(16)}:00001000:00000001:0001:000001:0:${'ab'.repeat(16)}`;

it('refuses a presigned PUT used with an unsigned x-amz-copy-source: nothing copied', async () => {
  const url = await putUrl('inbox');
  const res = await fetch(url, {
    method: 'PUT',
    headers: { 'x-amz-copy-source': '/victim/secret' },
    body: '',
  });
  const err = await errorOf(res);
  expect({ status: err.status, code: err.code, message: err.message }).toEqual({
    status: 403,
    code: 'AccessDenied',
    message: 'There were headers present in the request which were not signed',
  });
  expect(err.body).toContain('<HeadersNotSigned>x-amz-copy-source</HeadersNotSigned>');
  expect(stored('presign', 'inbox')).toBe(false);
});

const UNSIGNED_ROWS: { name: string; headers: Record<string, string> }[] = [
  { name: 'x-amz-meta-*', headers: { 'x-amz-meta-owner': 'mallory' } },
  { name: 'x-amz-tagging', headers: { 'x-amz-tagging': 'class=public' } },
  { name: 'x-amz-acl', headers: { 'x-amz-acl': 'public-read' } },
  { name: 'x-amz-website-redirect-location', headers: { 'x-amz-website-redirect-location': '/x' } },
  {
    name: 'object lock headers',
    headers: {
      'x-amz-object-lock-mode': 'COMPLIANCE',
      'x-amz-object-lock-retain-until-date': '2099-01-01T00:00:00Z',
    },
  },
  { name: 'x-amz-object-lock-legal-hold', headers: { 'x-amz-object-lock-legal-hold': 'ON' } },
  { name: 'x-amz-rdma-token', headers: { 'x-amz-rdma-token': TOKEN } },
  { name: 'x-amz-rdma-agent', headers: { 'x-amz-rdma-agent': 'cuobj' } },
  {
    name: 'the legacy X-CuObj-* trio',
    headers: {
      'X-CuObj-RDMA-Descr': TOKEN,
      'X-CuObj-Content-Length': '4096',
      'X-CuObj-Remote-Buf-Start': '4096',
    },
  },
];

for (const row of UNSIGNED_ROWS) {
  it(`refuses a presigned PUT with unsigned ${row.name}: AccessDenied, nothing stored`, async () => {
    const key = `unsigned-${row.name.replace(/\W+/g, '-')}`;
    const res = await fetch(await putUrl(key), { method: 'PUT', headers: row.headers, body: 'x' });
    const err = await errorOf(res);
    expect([err.status, err.code], err.body).toEqual([403, 'AccessDenied']);
    const named = /<HeadersNotSigned>([^<]*)<\/HeadersNotSigned>/.exec(err.body)?.[1]?.split(', ');
    expect(named?.sort()).toEqual(
      Object.keys(row.headers)
        .map((h) => h.toLowerCase())
        .sort(),
    );
    expect(stored('presign', key)).toBe(false);
  });
}

it('refuses a presigned DELETE with an unsigned x-amz-bypass-governance-retention', async () => {
  await gw.client.send(new PutObjectCommand({ Bucket: 'presign', Key: 'keep', Body: 'kept' }));
  const url = await getSignedUrl(gw.client, new DeleteObjectCommand({ Bucket: 'presign', Key: 'keep' }), {
    expiresIn: 300,
  });
  const res = await fetch(url, {
    method: 'DELETE',
    headers: { 'x-amz-bypass-governance-retention': 'true' },
  });
  expect([res.status, (await errorOf(res)).code]).toEqual([403, 'AccessDenied']);
  expect(stored('presign', 'keep')).toBe(true);
});

it('lets a presigned URL carry x-amz-content-sha256 unsigned, as S3 does (the query decides)', async () => {
  const res = await fetch(await putUrl('with-hash-header'), {
    method: 'PUT',
    headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    body: 'allowed',
  });
  expect(res.status).toBe(200);
  expect(String(backend.object('presign', 'with-hash-header').data)).toBe('allowed');
});
