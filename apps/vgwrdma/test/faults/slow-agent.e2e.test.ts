// A slow agent cannot hold the buffer pool (issue 16 item 7): an agent that trickles one byte at
// a time — each within the gateway's socket timeout — used to keep its pool buffer and channel
// forever. With a small --rdma-transfer-timeout the transfer is abandoned: the PUT fails with
// RequestTimeout and stores nothing, the gateway drops the agent's connection while the agent is
// still trickling, and the buffer and channel come back (PATCH /rdma-stats). Meanwhile the
// per-agent cap (--rdma-max-per-agent, default half the pool) declines the slow agent's second
// request while other clients are served.
import { setTimeout as sleep } from 'node:timers/promises';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { HostClient, type HostMemory } from '@vgwrdma/rdma-ffi';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { adminRequest, type GatewayProcess, ROOT_CREDENTIALS, useFaultScene } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillContent } from '../helpers/object-content.js';
import { RDMA_SDK_OPTIONS, sendError, sendWithToken } from '../helpers/rdma.js';
import { expectRdmaPut } from '../helpers/rdma-put.js';
import { type SlowProxy, startSlowProxy } from '../helpers/slow-proxy.js';

const KiB = 1024;
const SIZE = 512 * KiB;
const Bucket = 'slow';

interface Report {
  server: { timeouts: number; channelsInUse: number; buffersInUse: number; declines: Record<string, number> };
  pool: { inUse: number; free: number; count: number };
}

async function report(gw: GatewayProcess): Promise<Report> {
  const r = await adminRequest(gw.url, ROOT_CREDENTIALS, 'rdma-stats');
  expect(r.status).toBe(200);
  return JSON.parse(r.text) as Report;
}

/**
 * Polls until `done` holds (the buffer comes back once the native transfer has ended); after 30 s
 * (a loaded machine) the last report, which the caller's assertion then shows.
 */
async function until(gw: GatewayProcess, done: (r: Report) => boolean): Promise<Report> {
  const end = Date.now() + 30_000;
  for (;;) {
    const r = await report(gw);
    if (done(r) || Date.now() > end) return r;
    await sleep(50);
  }
}

describe('slow agent vs --rdma-transfer-timeout and --rdma-max-per-agent', () => {
  const scene = useFaultScene({
    bucket: Bucket,
    sdk: RDMA_SDK_OPTIONS,
    args: [
      '--pool-buf-size',
      '1MiB',
      '--pool-buf-count',
      '2',
      // The window in which the slow transfer holds its buffer, and the second request and an
      // honest PUT must reach the gateway: 400 ms was a moment on a loaded machine (the second
      // request came after the deadline and was not declined). The trickles last far longer.
      '--rdma-transfer-timeout',
      '5000',
      '--rdma-pool-wait-ms',
      '200',
    ],
  });
  let slow: HostClient;
  let honest: HostClient;
  let other: HostClient;
  let slowRegion: HostMemory;
  let proxy: SlowProxy;

  beforeAll(async () => {
    slow = new HostClient({ allowDirect: false }); // over TCP, where the proxy can slow it down
    honest = new HostClient();
    other = new HostClient();
    slowRegion = slow.allocate(SIZE);
    fillContent('slow', slowRegion.bytes);
    proxy = await startSlowProxy(parseRdmaToken(slowRegion.token(0, 1, 'put')).dctn, 4 * KiB, 200);
  });
  afterAll(async () => {
    await proxy?.close();
    slowRegion?.close();
    slow?.close();
    honest?.close();
    other?.close();
  });

  async function honestPut(Key: string, client = honest): Promise<void> {
    const region = client.allocate(SIZE);
    try {
      fillContent(Key, region.bytes);
      await expectRdmaPut(scene.sdk, Bucket, Key, region, SIZE);
    } finally {
      region.close();
    }
  }

  it('the trickling PUT is abandoned at its deadline, its buffer and channel come back, others are served', async () => {
    const slowPut = sendError(
      sendWithToken(
        scene.sdk,
        new PutObjectCommand({ Bucket, Key: 'trickled', Body: new Uint8Array(0) }),
        proxy.route(slowRegion.token(0, SIZE, 'put')),
      ),
    );
    while (!proxy.trickling()) await sleep(10);

    // While it holds a buffer: its agent is at its cap (1 of 2 buffers), another client is not.
    const second = await sendError(
      sendWithToken(
        scene.sdk,
        new PutObjectCommand({ Bucket, Key: 'second', Body: new Uint8Array(0) }),
        proxy.route(slowRegion.token(0, SIZE, 'put')),
      ),
    );
    expect(second).toMatchObject({ code: 'NotImplemented', status: 501 });
    expect(second.headers['x-amz-rdma-reply']).toBe('501');
    await honestPut('during');

    const failed = await slowPut;
    expect(failed).toMatchObject({ code: 'RequestTimeout', status: 400 });
    expect(failed.headers['x-amz-rdma-reply']).toBeUndefined();
    for (const Key of ['trickled', 'second']) {
      const head = await sendError(scene.sdk.send(new HeadObjectCommand({ Bucket, Key })));
      expect(head.status).toBe(404);
    }

    const after = await until(scene.gw, (r) => r.pool.inUse === 0 && r.server.channelsInUse === 0);
    expect(after.pool).toMatchObject({ inUse: 0, free: 2 });
    expect(after.server).toMatchObject({ channelsInUse: 0, buffersInUse: 0, timeouts: 1 });
    expect(after.server.declines['agent-busy']).toBe(1);
    // The gateway let go of the agent while it still had bytes to trickle.
    expect(proxy.droppedByGateway()).toBe(1);

    // Both buffers serve again: two clients (two agents) at once, byte-exact.
    await Promise.all([honestPut('after-1'), honestPut('after-2', other)]);
  });

  it('a GET whose agent trickles its acknowledgements is abandoned the same way', async () => {
    // Only the handshake's reply passes at full speed: WRITE_READY and every WRITE_ACK trickle,
    // a byte a second, so the acknowledgements alone outlast the 5 s transfer deadline.
    const acks = await startSlowProxy(parseRdmaToken(slowRegion.token(0, 1, 'get')).dctn, 40, 1000);
    try {
      const failed = await sendError(
        sendWithToken(
          scene.sdk,
          new GetObjectCommand({ Bucket, Key: 'after-1' }),
          acks.route(slowRegion.token(0, SIZE, 'get')),
        ),
      );
      expect(failed).toMatchObject({ code: 'RequestTimeout', status: 400 });
      const after = await until(scene.gw, (r) => r.pool.inUse === 0 && r.server.channelsInUse === 0);
      expect(after.pool).toMatchObject({ inUse: 0, free: 2 });
      expect(after.server).toMatchObject({ channelsInUse: 0, timeouts: 2 });
      expect(acks.droppedByGateway()).toBe(1);
      await honestPut('after-get');
    } finally {
      await acks.close();
    }
  });
});
