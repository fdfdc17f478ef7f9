// softnic over a real interface that fails: the gateway in this namespace (--rdma-ip on one end
// of a veth pair), client agents in another network namespace. An agent behind a link that is
// down is declined at once (PUT 501 + reply 501, GET served over HTTP with reply 501); a link cut
// in the middle of an RDMA PUT fails it with 500 once softnic's I/O timeout (10 s) passes, stores
// nothing, and once the link is back transfers work again and the gateway holds no more fds than
// before. Needs root and iproute2; skipped, saying why, elsewhere.
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { useFaultScene } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_BUFFER_NO_WAIT } from '../helpers/fault-flags.js';
import { md5Hex } from '../helpers/files.js';
import { type ClientLink, createClientLink, netnsSkipReason } from '../helpers/netns.js';
import { content } from '../helpers/object-content.js';
import { fdTargets, serverFds, settledFds } from '../helpers/proc-stats.js';
import { md5Of, RDMA_SDK_OPTIONS, rdmaHeaders, sendError, sendWithToken } from '../helpers/rdma.js';
import { type RegionChild, startRegionChild } from '../helpers/region-child.js';

const MiB = 1024 * 1024;
const SIZE = 32 * MiB;
const Bucket = 'link';
const skip = netnsSkipReason();
if (skip) console.log(`link-down tests skipped: ${skip}`);

describe.skipIf(skip !== undefined)('softnic agent in another network namespace, link faults', () => {
  let link: ClientLink;
  beforeAll(() => {
    link = createClientLink();
  });
  afterAll(() => link?.destroy());
  // Started once the namespace is there: the gateway's --rdma-ip is its end of the pair.
  const scene = useFaultScene(
    () => ({
      bucket: Bucket,
      objects: { obj: content('obj', SIZE) },
      sdk: RDMA_SDK_OPTIONS,
      rdmaIp: link.hostIp,
      // The agents live in the client namespace; the HTTP requests come over loopback.
      args: ['--rdma-allow-agents', link.clientIp, ...ONE_BUFFER_NO_WAIT],
    }),
    180_000,
  );
  let putter: RegionChild;
  let getter: RegionChild;
  let baseline: number;

  beforeAll(async () => {
    const inNs = { size: SIZE, agentAddress: link.clientIp, netns: link.ns } as const;
    [putter, getter] = await Promise.all([
      startRegionChild({ ...inNs, mode: 'put' }),
      startRegionChild({ ...inNs, mode: 'get' }),
    ]);
    await transfersWork('warm-up'); // the agents' connections are part of the baseline
    baseline = serverFds(scene.gw.child.pid as number, scene.gw.port);
    // A namespace, a gateway, two agent children and a warm-up: past 60 s on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    putter?.kill();
    getter?.kill();
  });

  /** An RDMA PUT from the namespace and an RDMA GET into it, both verified by MD5. */
  async function transfersWork(Key: string): Promise<void> {
    const put = await sendWithToken<{ ETag?: string }>(
      scene.sdk,
      new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0) }),
      putter.info.token,
    );
    expect(put.headers['x-amz-rdma-reply']).toBe('200');
    expect(put.output.ETag).toBe(`"${putter.info.md5}"`);
    const get = await sendWithToken(scene.sdk, new GetObjectCommand({ Bucket, Key }), getter.info.token);
    expect(get.headers['x-amz-rdma-reply']).toBe('200');
    expect(await getter.md5()).toBe(putter.info.md5);
  }

  const exists = (Key: string) =>
    scene.sdk.send(new HeadObjectCommand({ Bucket, Key })).then(
      () => true,
      () => false,
    );

  it('agent unreachable (link down): PUT declined 501 + reply 501, nothing stored; GET served over HTTP + reply 501', async () => {
    const inNs = { size: SIZE, agentAddress: link.clientIp, netns: link.ns } as const;
    const [p, g] = await Promise.all([
      startRegionChild({ ...inNs, mode: 'put' }),
      startRegionChild({ ...inNs, mode: 'get' }),
    ]);
    link.down();
    try {
      const put = sendWithToken(
        scene.sdk,
        new PutObjectCommand({ Bucket, Key: 'unreachable', Body: new Uint8Array(0) }),
        p.info.token,
      );
      const declined = await sendError(put);
      expect(declined).toMatchObject({ code: 'NotImplemented', status: 501 });
      expect(declined.headers['x-amz-rdma-reply']).toBe('501');
      expect(await exists('unreachable')).toBe(false);
      const get = await sendWithToken<{ Body?: AsyncIterable<Uint8Array> }>(
        scene.sdk,
        new GetObjectCommand({ Bucket, Key: 'obj' }),
        g.info.token,
      );
      expect(get.headers['x-amz-rdma-reply']).toBe('501');
      expect(await md5Of(get.output.Body)).toEqual({ md5: md5Hex(content('obj', SIZE)), size: SIZE });
    } finally {
      link.up();
      p.kill();
      g.kill();
    }
    await transfersWork('after-unreachable');
  });

  it('link cut mid RDMA PUT: 500 after the I/O timeout, nothing stored; link back: transfers work, no fd leaked', async () => {
    link.throttle('80mbit'); // 32 MiB then takes ~3.5 s, so the cut lands mid-transfer
    const before = link.rxBytes();
    const put = sendError(
      sendWithToken(
        scene.sdk,
        new PutObjectCommand({ Bucket, Key: 'cut', Body: new Uint8Array(0) }),
        putter.info.token,
      ),
    );
    while (link.rxBytes() - before < 4 * MiB) await new Promise((r) => setTimeout(r, 20));
    link.down();
    const t0 = Date.now();
    const failed = await put;
    const waited = Date.now() - t0;
    link.up();
    link.unthrottle();
    expect(failed.status).toBe(500);
    expect(rdmaHeaders(failed.headers)).toEqual([]);
    expect(waited).toBeLessThan(30_000); // bounded by the timeout, not hanging
    expect(await exists('cut')).toBe(false);
    await transfersWork('after-cut');
    const pid = scene.gw.child.pid as number;
    const fds = await settledFds(pid, scene.gw.port, baseline);
    expect(fds, fdTargets(pid).join('\n')).toBeLessThanOrEqual(baseline);
  }, 60_000);
});
