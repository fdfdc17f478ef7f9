// The per-request observation (GatewayOptions.observers) against a real gateway on loopback and a
// real SDK client: the S3 operation comes from the route table, errors carry their S3 code,
// bytes and object size are the HTTP bodies', a request cut by its client is observed as not
// completed, and limitStats() follows connections and requests in flight. What a log may keep:
// the URL with its signature REDACTED, how the request was signed, no bucket for a refused name.
import { connect } from 'node:net';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { GetObjectInput, HeadObjectOutput, RequestContext } from '@vgwrdma/backend-contract';
import { IDLE_LIMIT_STATS } from '@vgwrdma/test-kit';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterEach, expect, it } from 'vitest';
import type { RequestObservation } from '../../src/observe/index.js';
import { ACCESS, startGateway, type TestGateway } from '../support/harness.js';
import { raw } from '../support/raw-http.js';

const started: TestGateway[] = [];
afterEach(async () => {
  for (const gw of started.splice(0)) await gw.close();
});

async function observed(list: RequestObservation[], n: number): Promise<RequestObservation[]> {
  await expect.poll(() => list.length).toBeGreaterThanOrEqual(n);
  return list;
}

it('observes each request once with its S3 operation, status, error code, bytes and timings', async () => {
  const seen: RequestObservation[] = [];
  const gw = await startGateway(new MemoryBackend(), { observers: [(o) => seen.push(o)] });
  started.push(gw);
  const s3 = gw.client;
  await s3.send(new CreateBucketCommand({ Bucket: 'obs' }));
  await s3.send(new PutObjectCommand({ Bucket: 'obs', Key: 'k/1', Body: new Uint8Array(777) }));
  const got = await s3.send(new GetObjectCommand({ Bucket: 'obs', Key: 'k/1', Range: 'bytes=0-99' }));
  await got.Body?.transformToByteArray();
  await s3.send(new GetObjectCommand({ Bucket: 'obs', Key: 'nope' })).catch(() => {});
  const res = await raw(gw.url, { method: 'TRACE', path: '/obs' });
  expect(res.status).toBe(405);
  const [create, put, get, miss, brew] = await observed(seen, 5);
  expect(create).toMatchObject({ operation: 'CreateBucket', bucket: 'obs', key: '', status: 200 });
  expect(put).toMatchObject({
    operation: 'PutObject',
    method: 'PUT',
    key: 'k/1',
    status: 200,
    bytesReceived: 777,
    bytesSent: 0,
    objectSize: 777,
    accessKey: ACCESS,
    remoteAddress: '127.0.0.1',
    completed: true,
    errorCode: undefined,
  });
  expect(put?.plugins).toBeUndefined();
  expect(put?.firstByteMs).toBeGreaterThanOrEqual(0);
  expect(put?.totalMs).toBeGreaterThanOrEqual(put?.firstByteMs ?? Infinity);
  expect(get).toMatchObject({ operation: 'GetObject', status: 206, bytesSent: 100, objectSize: 777 });
  expect(miss).toMatchObject({
    operation: 'GetObject',
    status: 404,
    errorCode: 'NoSuchKey',
    objectSize: undefined,
  });
  expect(miss?.bytesSent).toBeGreaterThan(0); // the error document
  expect(brew).toMatchObject({ operation: 'Unknown', status: 405, errorCode: 'MethodNotAllowed' });
  expect(seen).toHaveLength(5);
  expect(new Set(seen.map((o) => o.requestId)).size).toBe(5);
});

it('redacts the signature, says how a request was signed, names probes, drops refused bucket names', async () => {
  const seen: RequestObservation[] = [];
  const gw = await startGateway(new MemoryBackend(), {
    observers: [(o) => seen.push(o)],
    healthPath: '/health',
  });
  started.push(gw);
  await gw.client.send(new CreateBucketCommand({ Bucket: 'signed' }));
  await gw.client.send(new PutObjectCommand({ Bucket: 'signed', Key: 'k', Body: 'v' }));
  const url = await getSignedUrl(gw.client, new GetObjectCommand({ Bucket: 'signed', Key: 'k' }));
  const signature = new URL(url).searchParams.get('X-Amz-Signature') ?? '';
  expect((await fetch(url)).status).toBe(200);
  expect((await raw(gw.url, { path: '/%0Aforged-line' })).status).toBe(400);
  expect((await raw(gw.url, { path: '/health' })).status).toBe(200);
  const [, put, presigned, refused, health] = await observed(seen, 5);
  expect(put).toMatchObject({ signatureVersion: 'SigV4', authType: 'AuthHeader', tlsVersion: undefined });
  expect(presigned).toMatchObject({
    operation: 'GetObject',
    signatureVersion: 'SigV4',
    authType: 'QueryString',
  });
  expect(presigned?.url).toContain('X-Amz-Signature=REDACTED');
  expect(presigned?.url).not.toContain(signature);
  expect(refused).toMatchObject({ bucket: '', errorCode: 'InvalidBucketName', signatureVersion: undefined });
  expect(health).toMatchObject({ operation: 'Health', status: 200 });
});

/** A backend whose HEAD waits until released: a request that stays in flight. */
class StuckHead extends MemoryBackend {
  release!: () => void;
  override async headObject(ctx: RequestContext, input: GetObjectInput): Promise<HeadObjectOutput> {
    await new Promise<void>((r) => {
      this.release = r;
    });
    return super.headObject(ctx, input);
  }
}

it('observes a request whose client went away as not completed; limitStats() counts connections and in-flight', async () => {
  const seen: RequestObservation[] = [];
  const backend = new StuckHead();
  const gw = await startGateway(backend, { anonymousAccess: true, observers: [(o) => seen.push(o)] });
  started.push(gw);
  expect(gw.gateway.limitStats()).toEqual(IDLE_LIMIT_STATS);
  const { port } = new URL(gw.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.write('HEAD /stuck/k HTTP/1.1\r\nHost: x\r\n\r\n');
  await expect.poll(() => gw.gateway.limitStats()).toMatchObject({ connections: 1, inFlight: 1 });
  expect(seen).toHaveLength(0);
  socket.destroy();
  const [cut] = await observed(seen, 1);
  expect(cut).toMatchObject({
    operation: 'HeadObject',
    completed: false,
    bytesSent: 0,
    firstByteMs: undefined,
  });
  await expect.poll(() => gw.gateway.limitStats()).toMatchObject({ connections: 0, inFlight: 0 });
  backend.release();
});

it('limitStats() counts SlowDown refusals of --max-requests, with or without observers', async () => {
  const backend = new StuckHead();
  const gw = await startGateway(backend, { anonymousAccess: true, maxRequests: 1 });
  started.push(gw);
  const stuck = connect(Number(new URL(gw.url).port), '127.0.0.1');
  await new Promise((r) => stuck.once('connect', r));
  stuck.write('HEAD /stuck/k HTTP/1.1\r\nHost: x\r\n\r\n');
  await expect.poll(() => gw.gateway.limitStats().inFlight).toBe(1);
  const refused = await raw(gw.url, { path: '/stuck/other' });
  expect(refused.status).toBe(503);
  expect(refused.body).toContain('<Code>SlowDown</Code>');
  await expect.poll(() => gw.gateway.limitStats().rejectedSlowDown).toBe(1);
  backend.release();
  stuck.destroy();
  await expect.poll(() => gw.gateway.limitStats()).toMatchObject({ inFlight: 0, rejectedSlowDown: 1 });
});
