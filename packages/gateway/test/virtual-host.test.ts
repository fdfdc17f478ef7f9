// Virtual-host–style addressing when a domain is configured: Host `<bucket>.<domain>`.
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCESS, SECRET, startGateway, type TestGateway } from './support/harness.js';
import { raw, xmlField } from './support/raw-http.js';
import { signedRaw } from './support/signed-raw.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway(new MemoryBackend(), { virtualHostDomain: 's3.test' });
  await gw.client.send(new CreateBucketCommand({ Bucket: 'vhost' }));
});
afterAll(async () => gw.close());

it('serves signed virtual-host requests and path-style requests alike', async () => {
  const host = `vhost.s3.test:${gw.running.port}`;
  const put = await signedRaw(gw.url, ACCESS, SECRET, {
    method: 'PUT',
    path: '/dir/a%20b',
    headers: { host },
    body: 'via host',
  });
  expect(put.status).toBe(200);
  const pathStyle = await signedRaw(gw.url, ACCESS, SECRET, { path: '/vhost/dir/a%20b' });
  expect(pathStyle.body).toBe('via host');
  const list = await signedRaw(gw.url, ACCESS, SECRET, { path: '/?list-type=2', headers: { host } });
  expect(xmlField(list.body, 'Name')).toBe('vhost');
  expect(xmlField(list.body, 'Key')).toBe('dir/a b');
});

it('validates a bucket name taken from the host', async () => {
  const res = await raw(gw.url, { path: '/k', headers: { host: `Bad_Name.s3.test:${gw.running.port}` } });
  expect([res.status, xmlField(res.body, 'Code')]).toEqual([400, 'InvalidBucketName']);
});
