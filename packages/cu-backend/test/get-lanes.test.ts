// A large GET runs on two channels (lanes) at once — chunk i on lane i % 2 — and still lands
// byte-exact; it takes the second channel only while every free pool buffer keeps a free channel
// (so a burst as large as the pool never declines for want of one), never with getLanes: 1, and
// gives both back. Observed by the channel of every WRITE the RdmaServer is asked for.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { PosixBackend } from '@vgwrdma/backend-posix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CuServer } from '../src/index.js';
import type { ClientProcess } from './client-process.js';
import { contextOf, cuScene, descriptor, laneRecordingCu } from './cu-scene.js';

const MiB = 1 << 20;
const CHANNELS = 4;
const OWNER = 'lanes-owner';
const bucket = 'lanes';

const ctx = contextOf(OWNER, 'lanes');

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

describe('GET on two lanes', () => {
  let client: ClientProcess;
  let posix: PosixBackend;
  const servers: CuServer[] = [];
  const data = Buffer.alloc(9 * MiB + 5);
  for (let i = 0; i < data.length; i++) data[i] = (i * 13 + 5) & 0xff;

  /** A CuServer whose RdmaServer records the channel id of every WRITE. */
  function open(lanes?: 1 | 2, channels = CHANNELS, buffers = 2) {
    const opened = laneRecordingCu(posix, 'get', { ...(lanes ? { lanes } : {}), channels, buffers });
    servers.push(opened.cu);
    return opened;
  }

  async function get(cu: CuServer): Promise<string> {
    const { region } = await client.alloc(data.length);
    const token = await client.token(region, 0, data.length, 'get');
    const out = await cu.getObject(ctx(descriptor(token)), { bucket, key: 'big' });
    expect(out.responseHeaders?.['x-amz-rdma-reply']).toBe('200'); // not 501: never declined
    return client.hash(region, { size: data.length });
  }

  cuScene({ prefix: 'cu-lanes-', bucket: { name: bucket, owner: OWNER, ctx } }, (s) => {
    ({ client, posix } = s);
  });
  beforeAll(async () => {
    await posix.putObject(ctx(), {
      bucket,
      key: 'big',
      body: Readable.from([data]),
      contentLength: data.length,
    });
  });
  afterAll(async () => {
    for (const cu of servers) await cu.shutdown();
  });

  it('uses two channels, alternating, and delivers the object byte-exact', async () => {
    const { cu, lanes } = open();
    expect(await get(cu)).toBe(md5(data));
    expect(lanes.length).toBe(10); // 9 MiB + 5 in 1 MiB chunks
    const [a, b] = lanes;
    expect(a).not.toBe(b);
    expect(lanes).toEqual(lanes.map((_, i) => (i % 2 === 0 ? a : b)));
    expect(cu.stats().channelsInUse).toBe(0);
  });

  it('stays on one channel when a spare would leave a free buffer without a channel', async () => {
    const { cu, server, lanes } = open(); // 4 channels, 2 buffers
    const held = [server.tryAllocateChannel(), server.tryAllocateChannel()];
    try {
      // after this GET's own channel: 1 free channel, 1 free buffer — no spare
      expect(await get(cu)).toBe(md5(data));
      expect(new Set(lanes).size).toBe(1);
    } finally {
      for (const c of held) c?.close();
    }
    lanes.length = 0;
    expect(await get(cu)).toBe(md5(data)); // 3 free channels, 1 free buffer: a spare
    expect(new Set(lanes).size).toBe(2);
    expect(cu.stats().channelsInUse).toBe(0);
  });

  it('a burst as large as the pool, with as many channels as buffers, is never declined', async () => {
    const { cu, lanes } = open(2, 4, 4);
    const hashes = await Promise.all([get(cu), get(cu), get(cu), get(cu)]);
    expect(hashes).toEqual(Array(4).fill(md5(data)));
    expect(cu.stats().declines['no-channel']).toBe(0);
    expect(new Set(lanes).size).toBe(4); // one channel each: a spare would have left a buffer without one
  });

  it('never with getLanes: 1', async () => {
    const { cu, lanes } = open(1);
    expect(await get(cu)).toBe(md5(data));
    expect(new Set(lanes).size).toBe(1);
  });
});
