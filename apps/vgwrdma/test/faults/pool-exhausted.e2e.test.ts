// Pool exhausted under load: with both pool buffers held (two RDMA PUTs whose agent trickles its
// bytes, so they last until released), a burst of concurrent RDMA PUTs and GETs waits at most
// --rdma-pool-wait-ms and is then declined — PUT 501 + reply 501 with nothing stored, GET served
// over HTTP with reply 501 — while plain requests keep working; nothing hangs. The gateway's own
// counters (PATCH /rdma-stats) show both buffers held before the burst and still held after it.
// Once the buffers are back, a burst larger than the pool queues within the wait and every
// transfer succeeds, verified.
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { HostClient } from '@vgwrdma/rdma-ffi';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import {
  type FaultScene,
  type GatewayProcess,
  type RdmaGatewayOptions,
  ROOT_CREDENTIALS,
  s3Client,
  settle,
  startFaultScene,
  startRdmaGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../helpers/files.js';
import { content, fillContent } from '../helpers/object-content.js';
import { md5Of, RDMA_SDK_OPTIONS, type S3Client, sendError, sendWithToken } from '../helpers/rdma.js';
import { putRegion } from '../helpers/rdma-put.js';
import { type RdmaStats, rdmaStats } from '../helpers/rdma-stats.js';
import { startSlowProxy } from '../helpers/slow-proxy.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const SIZE = 4 * MiB;
const BURST = 12;
const Bucket = 'pool';

/** Two 4 MiB buffers, waiting `waitMs` for one. */
function poolOptions(waitMs: number, extra: readonly string[] = []): RdmaGatewayOptions {
  return {
    // One agent must be able to hold both buffers here (the trickling one, then the burst's
    // client): the per-agent cap (default: half the pool) is lifted to the pool size.
    args: [
      ...extra,
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

/** Declines of the burst: pool wait over, or its agent's slots taken for the whole wait. */
const busyDeclines = (r: RdmaStats) =>
  (r.server.declines['pool-busy'] ?? 0) + (r.server.declines['agent-busy'] ?? 0);

describe('pool exhausted under load', () => {
  let scene: FaultScene;
  let gw: GatewayProcess;
  let sdk: S3Client;
  let client: HostClient;
  let holdClient: HostClient;

  beforeAll(async () => {
    scene = await startFaultScene({
      // The holders last until the test lets them go, not until a deadline a loaded machine can
      // reach during the burst (the deadline is far past this file's timeout).
      ...poolOptions(200, ['--rdma-transfer-timeout', '3600000']),
      bucket: Bucket,
      objects: { obj: content('obj', SIZE) },
      sdk: RDMA_SDK_OPTIONS,
    });
    ({ gw, sdk } = scene);
    client = new HostClient();
    holdClient = new HostClient({ allowDirect: false }); // over TCP, where a proxy can slow it down
  });
  afterAll(async () => {
    client?.close();
    holdClient?.close();
    // The last case restarts the gateway on the scene's root: stop that one before the scene.
    sdk?.destroy();
    await gw?.stop();
    await scene?.close();
  });

  it(`both buffers held: ${BURST} PUTs and ${BURST} GETs declined after the bounded wait, plain requests served`, async () => {
    // The burst's data is written first: nothing heavy runs between the settled state and the burst.
    const regions = Array.from({ length: BURST }, (_, i) => {
      const r = client.allocate(SIZE);
      fillContent(`burst-${i}`, r.bytes);
      return r;
    });
    const held = holdClient.allocate(SIZE);
    fillContent('held', held.bytes);
    // Each connection's handshake and first 4 KiB pass at once, then a byte per 200 ms (within the
    // gateway's socket timeouts): the two PUTs hold their buffers until the proxy closes.
    const hold = await startSlowProxy(parseRdmaToken(held.token(0, 1, 'put')).dctn, 4 * KiB, 200);
    try {
      const holders = [0, 1].map((i) =>
        sendError(
          sendWithToken(
            sdk,
            new PutObjectCommand({ Bucket, Key: `held-${i}`, Body: new Uint8Array(0) }),
            hold.route(held.token(0, SIZE, 'put')),
          ),
        ),
      );
      // The settled state the burst relies on: both buffers leased, no buffer free, the holders'
      // transfers in their slow phase (past the handshake, moving data).
      const before = await settle(
        () => rdmaStats(gw),
        (r) => r.pool.inUse === 2 && hold.slowConnections() >= 2,
        { what: 'both buffers held by the trickling PUTs', timeoutMs: 60_000 },
      );
      expect(before.pool).toMatchObject({ inUse: 2, free: 0, waiting: 0 });

      const puts = regions.map((r, i) =>
        sendError(
          sendWithToken(
            sdk,
            new PutObjectCommand({ Bucket, Key: `burst-${i}`, Body: new Uint8Array(0) }),
            r.token(0, SIZE, 'put'),
          ),
        ),
      );
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

      // The state held through the whole burst: both buffers still leased by the holders, no RDMA
      // transfer done or failed, every burst request declined for want of a buffer or slot.
      const after = await rdmaStats(gw);
      expect(after.pool).toMatchObject({ inUse: 2, free: 0 });
      expect(after.server.rdmaPuts - before.server.rdmaPuts).toBe(0);
      expect(after.server.rdmaGets - before.server.rdmaGets).toBe(0);
      expect(after.server.failures - before.server.failures).toBe(0);
      expect(busyDeclines(after) - busyDeclines(before)).toBe(2 * BURST);

      await hold.close(); // lets the holders go: their transfers fail, nothing stored
      await Promise.all(holders);
      for (const Key of [...regions.map((_, i) => `burst-${i}`), 'held-0', 'held-1']) {
        const head = await sendError(sdk.send(new HeadObjectCommand({ Bucket, Key })));
        expect(head.status).toBe(404);
      }
    } finally {
      for (const r of regions) r.close();
      held.close();
      await hold.close();
    }
  }, 180_000);

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
        await putRegion(sdk, Bucket, Key, r, SIZE);
      });
      await Promise.all(puts);
    } finally {
      for (const r of regions) r.close();
    }
  }, 300_000);
});
