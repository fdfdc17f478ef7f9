import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/harness.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway(new MemoryBackend());
});
afterAll(async () => gw.close());

it('round-trips an object through the SDK', async () => {
  await gw.client.send(new CreateBucketCommand({ Bucket: 'smoke' }));
  await gw.client.send(new PutObjectCommand({ Bucket: 'smoke', Key: 'a b', Body: 'hello' }));
  const got = await gw.client.send(new GetObjectCommand({ Bucket: 'smoke', Key: 'a b' }));
  expect(await got.Body?.transformToString()).toBe('hello');
});
