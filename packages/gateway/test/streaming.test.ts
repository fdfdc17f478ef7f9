// Bodies in motion: a 64 MiB GET streamed with bounded read-ahead, and the SDK's default
// aws-chunked upload (STREAMING-UNSIGNED-PAYLOAD-TRAILER with a CRC32 trailer).
import { get } from 'node:http';
import { Readable } from 'node:stream';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getChecksum } from '@vgwrdma/backend-contract';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import type { MiddlewareHandler } from 'hono';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GatewayEnv } from '../src/env.js';
import { startGateway, type TestGateway } from './support/harness.js';

const MiB = 1024 * 1024;
let backend: MemoryBackend;
let gw: TestGateway;
const seenHeaders: Record<string, string | string[] | undefined>[] = [];

const captureHeaders: MiddlewareHandler<GatewayEnv> = async (c, next) => {
  if (c.req.method === 'PUT') seenHeaders.push({ ...c.env.incoming.headers });
  await next();
};

beforeAll(async () => {
  backend = new MemoryBackend();
  gw = await startGateway(backend, { anonymousAccess: true, middlewares: [captureHeaders] });
  await gw.client.send(new CreateBucketCommand({ Bucket: 'stream' }));
});
afterAll(async () => gw.close());

/** Resolves once `value()` has stopped changing across a few event-loop turns of 20 ms. */
async function settled(value: () => number): Promise<void> {
  let last = -1;
  let stable = 0;
  while (stable < 3) {
    await new Promise((r) => setTimeout(r, 20));
    const v = value();
    stable = v === last ? stable + 1 : 0;
    last = v;
  }
}

it('streams a 64 MiB GET without reading far ahead of the client', async () => {
  const size = 64 * MiB;
  let produced = 0;
  backend.putSynthetic('stream', 'big', size, (n) => {
    produced += n;
  });
  const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    get(`${gw.url}/stream/big`, { agent: false }, resolve).on('error', reject);
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-length']).toBe(String(size));
  res.pause();
  // While the client reads nothing, the gateway may only fill socket and stream buffers.
  await settled(() => produced);
  const aheadWhilePaused = produced;
  expect(aheadWhilePaused).toBeLessThan(16 * MiB);

  let received = 0;
  let patternOk = true;
  let maxLead = 0;
  res.on('data', (chunk: Buffer) => {
    for (let i = 0; i < chunk.length; i += 4099) if (chunk[i] !== ((received + i) & 0xff)) patternOk = false;
    received += chunk.length;
    maxLead = Math.max(maxLead, produced - received);
  });
  res.resume();
  await new Promise((r) => res.on('end', r));
  expect(received).toBe(size);
  expect(patternOk).toBe(true);
  expect(maxLead).toBeLessThan(16 * MiB);
});

it('accepts the SDK default aws-chunked upload with a CRC32 trailer', async () => {
  const data = Buffer.alloc(2 * MiB + 123);
  for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 0xff;
  seenHeaders.length = 0;
  const put = await gw.client.send(
    new PutObjectCommand({
      Bucket: 'stream',
      Key: 'chunked',
      Body: Readable.from([data.subarray(0, MiB), data.subarray(MiB)]),
      ContentLength: data.length,
    }),
  );
  const h = seenHeaders[0] ?? {};
  expect(h['x-amz-content-sha256']).toBe('STREAMING-UNSIGNED-PAYLOAD-TRAILER');
  expect(h['x-amz-trailer']).toBe('x-amz-checksum-crc32');
  expect(String(h['content-encoding'])).toContain('aws-chunked');
  expect(h['x-amz-decoded-content-length']).toBe(String(data.length));

  const crc = getChecksum('CRC32').create();
  crc.update(data);
  const expected = crc.digest();
  expect(put.ChecksumCRC32).toBe(expected);
  const stored = backend.object('stream', 'chunked');
  expect(Buffer.isBuffer(stored.data) && stored.data.equals(data)).toBe(true);
  expect(stored.checksums.CRC32).toBe(expected);

  const got = await gw.client.send(new GetObjectCommand({ Bucket: 'stream', Key: 'chunked' }));
  const back = Buffer.from(
    await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
  );
  expect(back.equals(data)).toBe(true);
});
