// --metrics-port end to end: the built app with RDMA over softnic serves Prometheus metrics on a
// listener of its own; after real traffic — SDK PUT/GET/HEAD/list, an RDMA PUT and GET by an
// rdma-ffi HostClient, an anonymous RDMA GET the gateway declines — one scrape must count exactly
// that traffic: requests by operation and status class, HTTP bytes, RDMA transfers by direction
// and outcome, RDMA bytes, and the pool back to idle. The JSON access log of the same run must
// carry each request's fields, the RDMA leg included.
import { randomFillSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { HostClient } from '@vgwrdma/rdma-ffi';
import { type GatewayProcess, ROOT_CREDENTIALS } from '@vgwrdma/test-kit';
import { sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText, type Sample, sampleValue } from './helpers/prometheus-text.js';
import { RDMA_SDK_OPTIONS, sendError, sendWithToken } from './helpers/rdma.js';

const RDMA_SIZE = 1024 * 1024;
const Bucket = 'metered';

const test = sceneTest((dir) => ({
  rdma: true,
  globalArgs: [
    '--pool-buf-size',
    '4MiB',
    '--pool-buf-count',
    '2',
    '--metrics-port',
    '127.0.0.1:0',
    '--access-log',
    join(dir, 'access.log'),
  ],
  sdk: RDMA_SDK_OPTIONS,
}));

function metricsUrl(gw: GatewayProcess): string {
  const m = /^\s*metrics:\s+(\S+)$/m.exec(gw.stdout());
  if (!m?.[1]) throw new Error(`no metrics line in the banner:\n${gw.stdout()}`);
  return m[1];
}

async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

describe('vgwrdma --metrics-port with --rdma-ip (softnic)', () => {
  const the = sceneRef(test);
  let client: HostClient;

  beforeAll(() => {
    client = new HostClient();
  });
  afterAll(() => client?.close());

  it('counts real S3 and RDMA traffic exactly, on its own loopback listener', async () => {
    const url = metricsUrl(the.gw);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(url).port).not.toBe(String(the.gw.port));

    await the.s3.send(new CreateBucketCommand({ Bucket }));
    await the.s3.send(new PutObjectCommand({ Bucket, Key: 'a', Body: new Uint8Array(1000) }));
    await the.s3.send(new PutObjectCommand({ Bucket, Key: 'b', Body: new Uint8Array(2000) }));
    const got = await the.s3.send(new GetObjectCommand({ Bucket, Key: 'b' }));
    expect((await got.Body?.transformToByteArray())?.length).toBe(2000);
    await the.s3.send(new ListObjectsV2Command({ Bucket }));
    expect((await sendError(the.s3.send(new HeadObjectCommand({ Bucket, Key: 'missing' })))).status).toBe(
      404,
    );

    const src = client.allocate(RDMA_SIZE);
    randomFillSync(src.bytes);
    const dst = client.allocate(RDMA_SIZE);
    const put = await sendWithToken(
      the.s3,
      new PutObjectCommand({ Bucket, Key: 'r', Body: new Uint8Array(0) }),
      src.token(0, RDMA_SIZE, 'put'),
    );
    expect(put.headers['x-amz-rdma-reply']).toBe('200');
    const get = await sendWithToken(
      the.s3,
      new GetObjectCommand({ Bucket, Key: 'r' }),
      dst.token(0, RDMA_SIZE, 'get'),
    );
    expect(get.headers['x-amz-rdma-reply']).toBe('200');
    expect(Buffer.compare(Buffer.from(dst.bytes), Buffer.from(src.bytes))).toBe(0);

    // An unsigned RDMA GET of a public object: declined ('anonymous'), served in the HTTP body.
    await the.s3.send(
      new PutBucketPolicyCommand({
        Bucket,
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${Bucket}/a` },
          ],
        }),
      }),
    );
    const anon = await fetch(`${the.gw.url}/${Bucket}/a`, {
      headers: { 'x-amz-rdma-token': dst.token(0, 1000, 'get') },
    });
    expect(anon.status).toBe(200);
    expect(anon.headers.get('x-amz-rdma-reply')).toBe('501');
    expect((await anon.arrayBuffer()).byteLength).toBe(1000);

    const s = await scrape(url);
    const requests = (operation: string, status_class: string) =>
      sampleValue(s, 'vgwrdma_s3_requests_total', { operation, status_class });
    expect(requests('CreateBucket', '2xx')).toBe(1);
    expect(requests('PutObject', '2xx')).toBe(3);
    expect(requests('GetObject', '2xx')).toBe(3);
    expect(requests('ListObjectsV2', '2xx')).toBe(1);
    expect(requests('HeadObject', '4xx')).toBe(1);
    expect(requests('PutBucketPolicy', '2xx')).toBe(1);
    expect(sampleValue(s, 'vgwrdma_s3_request_duration_seconds_count', { operation: 'PutObject' })).toBe(3);
    // HTTP bodies only: the RDMA PUT's body is empty, the RDMA GET answers Content-Length 0.
    expect(sampleValue(s, 'vgwrdma_s3_received_bytes_total', { operation: 'PutObject' })).toBe(3000);
    expect(sampleValue(s, 'vgwrdma_s3_sent_bytes_total', { operation: 'GetObject' })).toBe(2000 + 1000);

    const transfers = (direction: string, outcome: string, reason = '') =>
      sampleValue(s, 'vgwrdma_rdma_transfers_total', { direction, outcome, reason });
    expect(transfers('put', 'done')).toBe(1);
    expect(transfers('get', 'done')).toBe(1);
    expect(transfers('get', 'declined', 'anonymous')).toBe(1);
    expect(transfers('put', 'failed') + transfers('get', 'failed')).toBe(0);
    expect(sampleValue(s, 'vgwrdma_rdma_bytes_total', { direction: 'put' })).toBe(RDMA_SIZE);
    expect(sampleValue(s, 'vgwrdma_rdma_bytes_total', { direction: 'get' })).toBe(RDMA_SIZE);
    expect(sampleValue(s, 'vgwrdma_rdma_transfer_duration_seconds_count', { direction: 'get' })).toBe(1);
    const lanes = s.filter((x) => x.name === 'vgwrdma_rdma_get_lanes_total').reduce((n, x) => n + x.value, 0);
    expect(lanes).toBe(1);
    expect(sampleValue(s, 'vgwrdma_rdma_pool_buffers', { state: 'in_use' })).toBe(0);
    expect(sampleValue(s, 'vgwrdma_rdma_pool_buffers', { state: 'free' })).toBe(2);
    expect(sampleValue(s, 'vgwrdma_rdma_pool_waiting')).toBe(0);
    expect(sampleValue(s, 'vgwrdma_rdma_channels_in_use')).toBe(0);
    expect(sampleValue(s, 'vgwrdma_s3_requests_in_flight')).toBe(0);
    expect(sampleValue(s, 'vgwrdma_slowdown_rejections_total')).toBe(0);
    expect(sampleValue(s, 'vgwrdma_connections_open')).toBeGreaterThanOrEqual(1); // the SDK's keep-alive
    expect(s.some((x) => x.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(s.some((x) => x.name === 'nodejs_eventloop_lag_seconds')).toBe(true);

    // The S3 port does not serve metrics: /metrics there names a bucket, which does not exist.
    const onS3 = await fetch(`${the.gw.url}/metrics`);
    expect(onS3.status).toBe(404);
    expect(await onS3.text()).toContain('<Code>NoSuchBucket</Code>');
    expect((await fetch(url.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('writes one JSON access-log line per request, with the RDMA leg', async () => {
    const lines = (await readFile(the.path('access.log'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const find = (operation: string, key: string, extra: Record<string, unknown> = {}) => {
      const hits = lines.filter(
        (l) =>
          l.operation === operation && l.key === key && Object.entries(extra).every(([k, v]) => l[k] === v),
      );
      expect(hits, `${operation} ${key}`).toHaveLength(1);
      return hits[0] ?? {};
    };
    const putA = find('PutObject', 'a');
    expect(putA).toMatchObject({
      msg: 'request',
      remoteAddress: '127.0.0.1',
      method: 'PUT',
      bucket: Bucket,
      status: 200,
      bytesSent: 0,
      bytesReceived: 1000,
      objectSize: 1000,
      accessKey: ROOT_CREDENTIALS.access,
      via: 'http',
      completed: true,
    });
    expect(putA.requestId).toMatch(/^[0-9A-F]{16}$/);
    expect(putA.userAgent).toMatch(/aws-sdk-js/);
    expect(putA.totalMs).toBeTypeOf('number');
    expect(putA.firstByteMs as number).toBeLessThanOrEqual(putA.totalMs as number);
    expect(putA).not.toHaveProperty('errorCode');
    expect(find('GetObject', 'b')).toMatchObject({
      status: 200,
      bytesSent: 2000,
      objectSize: 2000,
      via: 'http',
    });
    expect(find('HeadObject', 'missing')).toMatchObject({
      status: 404,
      errorCode: 'NoSuchKey',
      bytesSent: 0,
    });
    expect(find('ListObjectsV2', '')).toMatchObject({ status: 200, bucket: Bucket });
    expect(find('PutObject', 'r')).toMatchObject({
      via: 'rdma',
      rdmaBytes: RDMA_SIZE,
      objectSize: RDMA_SIZE,
    });
    expect(find('GetObject', 'r')).toMatchObject({ via: 'rdma', rdmaBytes: RDMA_SIZE, bytesSent: 0 });
    const anon = find('GetObject', 'a');
    expect(anon).toMatchObject({ via: 'http', rdmaBytes: 0, declineReason: 'anonymous', bytesSent: 1000 });
    expect(anon).not.toHaveProperty('accessKey');
  });
});
