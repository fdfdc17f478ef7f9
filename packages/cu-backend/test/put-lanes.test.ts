// A large PUT READs on two channels (lanes) at once — chunk i on lane i % 2 — and the stored
// object is still the client's buffer byte for byte, with its MD5 as the ETag; it takes the second
// channel only while every free pool buffer keeps a free channel, never with putLanes: 1, and
// gives both back. Observed by the channel of every READ the RdmaServer is asked for.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { PosixBackend } from '@vgwrdma/backend-posix';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { afterAll, describe, expect, it } from 'vitest';
import type { CuServer } from '../src/index.js';
import type { ClientProcess } from './client-process.js';
import { contextOf, cuScene, descriptor, laneRecordingCu } from './cu-scene.js';

const MiB = 1 << 20;
const OWNER = 'put-lanes-owner';
const bucket = 'put-lanes';
const SIZE = 9 * MiB + 5; // ten 1 MiB chunks, the last one 5 bytes

const ctx = contextOf(OWNER, 'put-lanes');

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

async function readAll(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

describe('PUT on two lanes', () => {
  let client: ClientProcess;
  let posix: PosixBackend;
  const servers: CuServer[] = [];

  /** A CuServer whose RdmaServer records the channel id of every READ. */
  function open(lanes?: 1 | 2, channels = 4, buffers = 2) {
    const opened = laneRecordingCu(posix, 'put', { ...(lanes ? { lanes } : {}), channels, buffers });
    servers.push(opened.cu);
    return opened;
  }

  /** PUTs SIZE client bytes (seeded) as `key`; answers the client's MD5 and what was stored. */
  async function put(cu: CuServer, key: string, seed: number) {
    const { region } = await client.alloc(SIZE);
    await client.fill(region, seed);
    const token = await client.token(region, 0, SIZE, 'put');
    const out = await cu.putObject(ctx(descriptor(token)), {
      bucket,
      key,
      body: Readable.from([]),
      contentLength: 0,
    });
    expect(out.responseHeaders?.['x-amz-rdma-reply']).toBe('200');
    const clientMd5 = await client.hash(region, { size: SIZE });
    const stored = await readAll((await posix.getObject(ctx(), { bucket, key })).body);
    return { etag: out.etag, clientMd5, storedMd5: md5(stored), storedSize: stored.length };
  }

  cuScene({ prefix: 'cu-put-lanes-', bucket: { name: bucket, owner: OWNER, ctx } }, (s) => {
    ({ client, posix } = s);
  });
  afterAll(async () => {
    for (const cu of servers) await cu.shutdown();
  });

  it('READs on two channels, alternating, and stores the buffer byte-exact with its MD5 as ETag', async () => {
    const { cu, lanes, events } = open();
    const r = await put(cu, 'two-lanes', 3);
    expect(r.storedSize).toBe(SIZE);
    expect(r.storedMd5).toBe(r.clientMd5);
    expect(r.etag).toBe(`"${r.clientMd5}"`);
    expect(lanes.length).toBe(10);
    const [a, b] = lanes;
    expect(a).not.toBe(b);
    expect(lanes).toEqual(lanes.map((_, i) => (i % 2 === 0 ? a : b)));
    expect(events.at(-1)).toMatchObject({ direction: 'put', outcome: 'done', bytes: SIZE, lanes: 2 });
    expect(cu.stats().channelsInUse).toBe(0);
  });

  it('stays on one channel when a spare would leave a free buffer without a channel', async () => {
    const { cu, server, lanes } = open(); // 4 channels, 2 buffers
    const held = [server.tryAllocateChannel(), server.tryAllocateChannel()];
    try {
      const r = await put(cu, 'one-lane-busy', 4);
      expect(r.storedMd5).toBe(r.clientMd5);
      expect(new Set(lanes).size).toBe(1);
    } finally {
      for (const c of held) c?.close();
    }
    expect(cu.stats().channelsInUse).toBe(0);
  });

  it('never with putLanes: 1', async () => {
    const { cu, lanes, events } = open(1);
    const r = await put(cu, 'one-lane', 5);
    expect(r.storedMd5).toBe(r.clientMd5);
    expect(new Set(lanes).size).toBe(1);
    expect(events.at(-1)).toMatchObject({ direction: 'put', outcome: 'done', lanes: 1 });
  });

  it('a small PUT (two chunks or fewer) keeps one channel', async () => {
    const { cu, lanes } = open();
    const { region } = await client.alloc(2 * MiB);
    await client.fill(region, 6);
    const token = await client.token(region, 0, 2 * MiB, 'put');
    await cu.putObject(ctx({ token: parseRdmaToken(token), scheme: 'token' }), {
      bucket,
      key: 'small',
      body: Readable.from([]),
      contentLength: 0,
    });
    expect(lanes.length).toBe(2);
    expect(new Set(lanes).size).toBe(1);
  });
});
