// A client process killed mid RDMA PUT and mid RDMA GET (SIGKILL once 8 MiB crossed a proxy to
// its agent): the request fails cleanly (500, no RDMA reply headers), a PUT stores nothing and
// leaves no temp file, and the gateway is back where it was: the same open fds (/proc), no file
// of the tree held open, and its one pool buffer and one channel free — with --rdma-pool-wait-ms
// 0 a transfer right after succeeds only if both came back. Repeated (FAULT_REPEAT, default 3),
// so a leak would add up.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { HostClient } from '@vgwrdma/rdma-ffi';
import { adminRequest, ROOT_CREDENTIALS, settle, useFaultScene } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_BUFFER_NO_WAIT } from '../helpers/fault-flags.js';
import { startKillProxy } from '../helpers/kill-proxy.js';
import { fillContent } from '../helpers/object-content.js';
import { fdTargets, openFilesUnder, serverFds, settledFds } from '../helpers/proc-stats.js';
import { RDMA_SDK_OPTIONS, rdmaHeaders, sendError, sendWithToken } from '../helpers/rdma.js';
import { startRegionChild } from '../helpers/region-child.js';

const MiB = 1024 * 1024;
const SIZE = 48 * MiB;
const REPEAT = Number(process.env.FAULT_REPEAT ?? 3);
const Bucket = 'client-kill';

describe('client process killed mid RDMA transfer (one buffer, one channel, no wait)', () => {
  const scene = useFaultScene({
    bucket: Bucket,
    objects: { big: Buffer.alloc(SIZE, 7) },
    sdk: RDMA_SDK_OPTIONS,
    args: ONE_BUFFER_NO_WAIT,
  });
  let client: HostClient;
  let baseline: number;

  beforeAll(async () => {
    client = new HostClient();
    await roundTrip('warm-up'); // the in-process agent's connection is part of the baseline
    baseline = serverFds(scene.gw.child.pid as number, scene.gw.port);
  });
  afterAll(() => client?.close());

  /** PUT then GET 1 MiB by RDMA at once: fails (501 decline) unless the buffer and channel are free. */
  async function roundTrip(Key: string): Promise<void> {
    const m = client.allocate(MiB);
    try {
      fillContent(Key, m.bytes);
      const put = await sendWithToken(
        scene.sdk,
        new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0) }),
        m.token(0, MiB, 'put'),
      );
      expect(put.headers['x-amz-rdma-reply']).toBe('200');
      const back = client.allocate(MiB);
      try {
        const get = await sendWithToken(
          scene.sdk,
          new GetObjectCommand({ Bucket, Key }),
          back.token(0, MiB, 'get'),
        );
        expect(get.headers['x-amz-rdma-reply']).toBe('200');
        expect(Buffer.compare(back.bytes, m.bytes)).toBe(0);
      } finally {
        back.close();
      }
    } finally {
      m.close();
    }
  }

  async function exists(Key: string): Promise<boolean> {
    return scene.sdk.send(new HeadObjectCommand({ Bucket, Key })).then(
      () => true,
      () => false,
    );
  }

  /** Everything the failed transfer held is back: fds, open files of the tree, buffer, channel. */
  async function gatewayRecovered(label: string): Promise<void> {
    const pid = scene.gw.child.pid as number;
    const fds = await settledFds(pid, scene.gw.port, baseline);
    expect(fds, `${label}: fds\n${fdTargets(pid).join('\n')}`).toBeLessThanOrEqual(baseline);
    // Settled first: the failed transfer's buffer, channel and files let go (bounded; the
    // assertions below then say what is still held).
    await settle(
      async () => ({
        files: openFilesUnder(pid, scene.gw.root).length,
        stats: JSON.parse((await adminRequest(scene.gw.url, ROOT_CREDENTIALS, 'rdma-stats')).text),
      }),
      ({ files, stats }) => files === 0 && stats.server?.buffersInUse === 0 && stats.pool?.inUse === 0,
      { what: `${label}: gateway let go of the transfer` },
    ).catch(() => undefined);
    expect(openFilesUnder(pid, scene.gw.root), `${label}: files held open`).toEqual([]);
    // The gateway's own counters (PATCH /rdma-stats): nothing in use, nobody waiting, a failure counted.
    const stats = await adminRequest(scene.gw.url, ROOT_CREDENTIALS, 'rdma-stats');
    expect(stats.status, stats.text).toBe(200);
    const { server, pool } = JSON.parse(stats.text);
    expect(server, `${label}: rdma stats`).toMatchObject({ buffersInUse: 0, channelsInUse: 0 });
    expect(server.failures, `${label}: failures counted`).toBeGreaterThan(0);
    expect(pool, `${label}: pool`).toMatchObject({ count: 1, free: 1, inUse: 0, waiting: 0 });
    const temps = await readdir(join(scene.gw.root, Bucket, '.sgwtmp')).catch(() => [] as string[]);
    expect(
      temps.filter((n) => n !== 'multipart'),
      `${label}: temp files`,
    ).toEqual([]);
    await roundTrip(`after-${label}`);
  }

  it(`mid-PUT, ${REPEAT} times: 500, no object, nothing held`, async () => {
    for (let i = 0; i < REPEAT; i++) {
      const child = await startRegionChild({ size: SIZE, mode: 'put' });
      const proxy = await startKillProxy(child.info.port, 'to-gateway', 8 * MiB, child.kill);
      try {
        const Key = `killed-put-${i}`;
        const failed = await sendError(
          sendWithToken(
            scene.sdk,
            new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0) }),
            proxy.route(child.info.token),
          ),
        );
        expect(proxy.fired()).toBe(true);
        expect(failed.status).toBe(500);
        expect(rdmaHeaders(failed.headers)).toEqual([]);
        expect(await exists(Key)).toBe(false);
      } finally {
        child.kill();
        await proxy.close();
      }
      await gatewayRecovered(`put-${i}`);
    }
  }, 180_000); // three kills and recoveries: past 60 s on a loaded machine

  it(`mid-GET, ${REPEAT} times: 500, the object unchanged, nothing held`, async () => {
    for (let i = 0; i < REPEAT; i++) {
      const child = await startRegionChild({ size: SIZE, mode: 'get' });
      const proxy = await startKillProxy(child.info.port, 'to-agent', 8 * MiB, child.kill);
      try {
        const failed = await sendError(
          sendWithToken(
            scene.sdk,
            new GetObjectCommand({ Bucket, Key: 'big' }),
            proxy.route(child.info.token),
          ),
        );
        expect(proxy.fired()).toBe(true);
        expect(failed.status).toBe(500);
        expect(rdmaHeaders(failed.headers)).toEqual([]);
      } finally {
        child.kill();
        await proxy.close();
      }
      await gatewayRecovered(`get-${i}`);
    }
    const plain = await scene.sdk.send(new GetObjectCommand({ Bucket, Key: 'big' }));
    const body = Buffer.from((await plain.Body?.transformToByteArray()) ?? []);
    expect(body.equals(Buffer.alloc(SIZE, 7))).toBe(true);
  }, 180_000); // three kills and recoveries: past 60 s on a loaded machine
});
