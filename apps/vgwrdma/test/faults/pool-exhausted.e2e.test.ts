// Pool exhausted under load: with both pool buffers held (transfers aimed at agents that never
// answer), a burst of concurrent RDMA PUTs and GETs waits at most --rdma-pool-wait-ms and is then
// declined — PUT 501 + reply 501 with nothing stored, GET served over HTTP with reply 501 — while
// plain requests keep working; nothing hangs. Once the buffers are back, a burst larger than the
// pool queues within the wait and every transfer succeeds, verified.
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { HostClient } from '@vgwrdma/rdma-ffi';
import {
  type FaultScene,
  type GatewayProcess,
  type RdmaGatewayOptions,
  ROOT_CREDENTIALS,
  s3Client,
  startFaultScene,
  startRdmaGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../helpers/files.js';
import { content, fillContent } from '../helpers/object-content.js';
import { md5Of, RDMA_SDK_OPTIONS, type S3Client, sendError, sendWithToken } from '../helpers/rdma.js';
import { startStuckAgent } from '../helpers/stuck-agent.js';

const MiB = 1024 * 1024;
const SIZE = 4 * MiB;
const BURST = 12;
const Bucket = 'pool';

/** Two 4 MiB buffers, waiting `waitMs` for one. */
function poolOptions(waitMs: number): RdmaGatewayOptions {
  return {
    // One agent must be able to hold both buffers here (the stuck one, then the burst's client):
    // the per-agent cap (default: half the pool) is lifted to the pool size.
    args: [
      '--pool-buf-size',
      '4MiB',
      '--pool-buf-count',
      '2',
      '--rdma-pool-wait-ms',
      String(waitMs),
      '--rdma-max-per-agent',
      '2',
    ],
  };
}

describe('pool exhausted under load', () => {
  let scene: FaultScene;
  let gw: GatewayProcess;
  let sdk: S3Client;
  let client: HostClient;

  beforeAll(async () => {
    scene = await startFaultScene({
      ...poolOptions(200),
      bucket: Bucket,
      objects: { obj: content('obj', SIZE) },
      sdk: RDMA_SDK_OPTIONS,
    });
    ({ gw, sdk } = scene);
    client = new HostClient();
  });
  afterAll(async () => {
    client?.close();
    // The last case restarts the gateway on the scene's root: stop that one before the scene.
    sdk?.destroy();
    await gw?.stop();
    await scene?.close();
  });

  it(`both buffers held: ${BURST} PUTs and ${BURST} GETs declined after the bounded wait, plain requests served`, async () => {
    const stuck = await startStuckAgent();
    const regions = Array.from({ length: BURST }, () => client.allocate(SIZE));
    try {
      const holders = [0, 1].map((i) =>
        sendError(
          sendWithToken(
            sdk,
            new PutObjectCommand({ Bucket, Key: `held-${i}`, Body: new Uint8Array(0) }),
            stuck.route(regions[0]?.token(0, SIZE, 'put') ?? ''),
          ),
        ),
      );
      await stuck.connected(2); // both buffers and their channels are taken now
      const puts = regions.map((r, i) => {
        fillContent(`burst-${i}`, r.bytes);
        return sendError(
          sendWithToken(
            sdk,
            new PutObjectCommand({ Bucket, Key: `burst-${i}`, Body: new Uint8Array(0) }),
            r.token(0, SIZE, 'put'),
          ),
        );
      });
      const gets = regions.map((r) =>
        sendWithToken<{ Body?: AsyncIterable<Uint8Array> }>(
          sdk,
          new GetObjectCommand({ Bucket, Key: 'obj' }),
          r.token(0, SIZE, 'get'),
        ),
      );
      const plain = sdk.send(new HeadObjectCommand({ Bucket, Key: 'obj' }));
      for (const d of await Promise.all(puts)) {
        expect(d).toMatchObject({ code: 'NotImplemented', status: 501 });
        expect(d.headers['x-amz-rdma-reply']).toBe('501');
      }
      for (const g of await Promise.all(gets)) {
        expect(g.headers['x-amz-rdma-reply']).toBe('501');
        expect(await md5Of(g.output.Body)).toEqual({ md5: md5Hex(content('obj', SIZE)), size: SIZE });
      }
      expect((await plain).ContentLength).toBe(SIZE);
      stuck.release();
      await Promise.all(holders);
      for (let i = 0; i < BURST; i++) {
        const head = await sendError(sdk.send(new HeadObjectCommand({ Bucket, Key: `burst-${i}` })));
        expect(head.status).toBe(404);
      }
    } finally {
      for (const r of regions) r.close();
      await stuck.close();
    }
  });

  it(`buffers free: a burst of ${BURST} RDMA PUTs on 2 buffers queues within the wait and all succeed`, async () => {
    await gw.stop();
    // A wait no loaded machine outlasts: the burst is served two at a time.
    gw = await startRdmaGateway({ ...poolOptions(120_000), root: gw.root });
    sdk.destroy();
    sdk = s3Client(gw.url, ROOT_CREDENTIALS, RDMA_SDK_OPTIONS);
    const regions = Array.from({ length: BURST }, () => client.allocate(SIZE));
    try {
      const puts = regions.map(async (r, i) => {
        const Key = `queued-${i}`;
        fillContent(Key, r.bytes);
        const put = await sendWithToken<{ ETag?: string }>(
          sdk,
          new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0) }),
          r.token(0, SIZE, 'put'),
        );
        expect(put.headers['x-amz-rdma-reply']).toBe('200');
        expect(put.output.ETag).toBe(`"${md5Hex(r.bytes)}"`);
      });
      await Promise.all(puts);
    } finally {
      for (const r of regions) r.close();
    }
  }, 300_000);
});
