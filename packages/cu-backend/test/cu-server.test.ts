// CuServer over a real PosixBackend (temp dir) and a real RdmaServer, with the client's memory in
// a HostClient child process: every payload crosses processes through tokens, as in real use.

import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import {
  type Backend,
  DelegatingBackend,
  type RdmaDescriptor,
  type RequestContext,
  S3Error,
} from '@vgwrdma/backend-contract';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { BufferPool } from '@vgwrdma/bufferpool';
import { RdmaServer } from '@vgwrdma/rdma-ffi';
import { formatRdmaToken, parseRdmaToken, withWindow } from '@vgwrdma/rdma-protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CuServer, type RdmaTransferEvent } from '../src/index.js';
import { ClientProcess } from './client-process.js';
import { contextOf, cuScene, descriptor, rejection } from './cu-scene.js';

const MiB = 1 << 20;
const CHANNELS = 4;
const POOL = { count: 2, size: 2 * MiB };
const OWNER = 'cu-owner';

const ctx = contextOf(OWNER, 'cu-test');

const empty = () => Readable.from([]);
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A loopback port nobody listens on. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A backend whose putObject runs `onChunk` on each body chunk as the backend receives it. */
class HookedBackend extends DelegatingBackend {
  onChunk: ((index: number) => Promise<void> | void) | undefined;
  private hook<T extends { body: Readable }>(input: T): T {
    const hook = this.onChunk;
    if (!hook) return input;
    let index = 0;
    const t = new Transform({
      transform(chunk, _enc, cb) {
        Promise.resolve(hook(index++)).then(() => cb(null, chunk), cb);
      },
    });
    // pipe() flows before the backend starts iterating: keep a listener so an early error is
    // stored on `t` (the backend's iteration then throws it) instead of crashing the process.
    t.on('error', () => {});
    input.body.on('error', (e) => t.destroy(e));
    return { ...input, body: input.body.pipe(t) };
  }
  override putObject(c: RequestContext, input: Parameters<Backend['putObject']>[1]) {
    return this.inner.putObject(c, this.hook(input));
  }
}

describe('CuServer(posix) with a HostClient in a child process', () => {
  let client: ClientProcess;
  let posix: PosixBackend;
  let hooked: HookedBackend;
  let server: RdmaServer;
  let pool: BufferPool;
  let cu: CuServer;
  const bucket = 'rdma-bucket';

  cuScene({ prefix: 'cu-server-' }, (s) => {
    ({ client, posix } = s);
  });
  beforeAll(async () => {
    hooked = new HookedBackend(posix);
    server = new RdmaServer({ channels: CHANNELS, ioTimeoutMs: 3000 });
    pool = BufferPool.create(server, { ...POOL, defaultWaitMs: 10_000 });
    cu = new CuServer({ server, pool, poolWaitMs: 100, chunkSize: MiB }, hooked);
    await cu.createBucket(ctx(), { bucket, owner: OWNER, acl: { Owner: OWNER, Grantees: [] } });
  });
  afterAll(async () => {
    await cu?.shutdown();
  });

  /** Every request gives its buffer and channel back: the pool is full and all channels are free. */
  afterEach(() => {
    expect(pool.stats()).toMatchObject({ inUse: 0, free: POOL.count, waiting: 0 });
    expect(cu.stats().channelsInUse).toBe(0);
    const taken = Array.from({ length: CHANNELS }, () => server.tryAllocateChannel());
    expect(taken.every((c) => c !== undefined)).toBe(true);
    for (const c of taken) c?.close();
  });

  async function clientRegion(size: number, seed: number) {
    const { region } = await client.alloc(size);
    await client.fill(region, seed);
    return region;
  }

  async function exists(key: string): Promise<boolean> {
    try {
      await posix.headObject(ctx(), { bucket, key });
      return true;
    } catch (e) {
      if (e instanceof S3Error && e.code === 'NoSuchKey') return false;
      throw e;
    }
  }

  it('PUT by RDMA: the object is the client buffer byte for byte, ETag = its MD5, reply headers set', async () => {
    const size = 5 * MiB + 12_345; // six 1 MiB chunks, the last one short
    const region = await clientRegion(size, 1);
    const token = await client.token(region, 0, size, 'put');
    const out = await cu.putObject(ctx(descriptor(token)), {
      bucket,
      key: 'put-1',
      body: empty(),
      contentLength: 0,
    });
    const clientMd5 = await client.hash(region);
    expect(out.etag).toBe(`"${clientMd5}"`);
    expect(out.size).toBe(size);
    expect(out.responseHeaders).toEqual({
      'x-amz-rdma-reply': '200',
      'x-amz-rdma-bytes-transferred': String(size),
      'x-amz-rdma-bytes': String(size),
    });
    const stored = await readAll((await posix.getObject(ctx(), { bucket, key: 'put-1' })).body);
    expect(md5(stored)).toBe(clientMd5);
  });

  it('PUT is pipelined: when the backend gets chunk i, the READ of chunk i+1 has already been issued', async () => {
    const chunks = 6;
    const size = chunks * MiB;
    const region = await clientRegion(size, 10);
    const token = await client.token(region, 0, size, 'put');
    const done = () => {
      const s = server.stats();
      return s.directTransfers + s.tcpTransfers;
    };
    const before = done();
    const issuedAt: number[] = [];
    hooked.onChunk = () => {
      issuedAt.push(done() - before + server.inFlight);
    };
    try {
      await cu.putObject(ctx(descriptor(token)), { bucket, key: 'pipelined', body: empty() });
    } finally {
      hooked.onChunk = undefined;
    }
    expect(issuedAt).toHaveLength(chunks);
    for (const [i, issued] of issuedAt.entries()) {
      expect(issued, `chunk ${i}`).toBeGreaterThanOrEqual(Math.min(i + 2, chunks));
    }
  });

  it('a legacy descriptor (X-CuObj-* trio) moves exactly its window: remote start and length', async () => {
    const size = 3 * MiB;
    const region = await clientRegion(size, 11);
    const token = parseRdmaToken(await client.token(region, 0, size, 'put'));
    const offset = MiB + 4096;
    const length = MiB + 5;
    const legacy: RdmaDescriptor = {
      token: withWindow(token, token.addr + BigInt(offset), length),
      scheme: 'legacy',
    };
    const out = await cu.putObject(ctx(legacy), { bucket, key: 'legacy', body: empty() });
    expect(out.etag).toBe(`"${await client.hash(region, { offset, size: length })}"`);
    expect(out.size).toBe(length);

    const { region: target } = await client.alloc(size);
    const getToken = parseRdmaToken(await client.token(target, 0, size, 'get'));
    const legacyGet: RdmaDescriptor = {
      token: withWindow(getToken, getToken.addr + 100n, length),
      scheme: 'legacy',
    };
    const got = await cu.getObject(ctx(legacyGet), { bucket, key: 'legacy' });
    expect(got.responseHeaders?.['x-amz-rdma-bytes']).toBe(String(length));
    expect(await client.hash(target, { offset: 100, size: length })).toBe(
      await client.hash(region, { offset, size: length }),
    );
    expect(await client.hash(target, { size: 100 })).toBe(md5(new Uint8Array(100)));
  });

  it('PUT verifies x-amz-checksum-* against the RDMA bytes: right one stored, wrong one BadDigest and nothing stored', async () => {
    const size = 3 * MiB + 7;
    const region = await clientRegion(size, 2);
    const sha = await client.hash(region, { algorithm: 'sha256', encoding: 'base64' });
    const token = await client.token(region, 0, size, 'put');
    const ok = await cu.putObject(ctx(descriptor(token)), {
      bucket,
      key: 'sum-ok',
      body: empty(),
      checksum: { algorithm: 'SHA256', expected: () => sha },
    });
    expect(ok.checksums.SHA256).toBe(sha);
    expect(ok.responseHeaders?.['x-amz-rdma-reply']).toBe('200');

    const wrong = createHash('sha256').update('something else').digest('base64');
    const err = await rejection(
      cu.putObject(ctx(descriptor(token)), {
        bucket,
        key: 'sum-bad',
        body: empty(),
        checksum: { algorithm: 'SHA256', expected: () => wrong },
      }),
    );
    expect(err.code).toBe('BadDigest');
    expect(err.headers['x-amz-rdma-reply']).toBeUndefined();
    expect(await exists('sum-bad')).toBe(false);
  });

  it('UploadPart by RDMA: three parts, each ETag = MD5 of its window, the completed object byte-exact', async () => {
    const partSizes = [5 * MiB, 5 * MiB + 1, 1234];
    const total = partSizes.reduce((a, b) => a + b, 0);
    const region = await clientRegion(total, 3);
    const up = await cu.createMultipartUpload(ctx(), { bucket, key: 'mp' });
    const parts = [];
    let offset = 0;
    for (const [i, size] of partSizes.entries()) {
      const token = await client.token(region, offset, size, 'put');
      const out = await cu.uploadPart(ctx(descriptor(token)), {
        bucket,
        key: 'mp',
        uploadId: up.uploadId,
        partNumber: i + 1,
        body: empty(),
      });
      expect(out.etag).toBe(`"${await client.hash(region, { offset, size })}"`);
      expect(out.responseHeaders?.['x-amz-rdma-bytes']).toBe(String(size));
      parts.push({ partNumber: i + 1, etag: out.etag });
      offset += size;
    }
    await cu.completeMultipartUpload(ctx(), { bucket, key: 'mp', uploadId: up.uploadId, parts });
    const stored = await readAll((await posix.getObject(ctx(), { bucket, key: 'mp' })).body);
    expect(stored.length).toBe(total);
    expect(md5(stored)).toBe(await client.hash(region));
  });

  it('GET by RDMA writes the object into the client buffer; empty body, reply 200', async () => {
    const size = 4 * MiB + 999;
    const data = Buffer.alloc(size);
    for (let i = 0; i < size; i++) data[i] = (i * 31 + 7) & 0xff;
    await posix.putObject(ctx(), { bucket, key: 'get-1', body: Readable.from([data]), contentLength: size });
    const { region } = await client.alloc(size + 100);
    const token = await client.token(region, 0, size + 100, 'get'); // capacity larger than the object
    const out = await cu.getObject(ctx(descriptor(token)), { bucket, key: 'get-1' });
    expect(out.range).toBeUndefined();
    expect(out.size).toBe(size);
    expect(out.etag).toBe(`"${md5(data)}"`);
    expect(out.responseHeaders).toEqual({
      'x-amz-rdma-reply': '200',
      'x-amz-rdma-bytes-transferred': String(size),
      'x-amz-rdma-bytes': String(size),
      'content-length': '0',
    });
    expect((await readAll(out.body)).length).toBe(0);
    expect(await client.hash(region, { size })).toBe(md5(data));
    expect(await client.hash(region, { offset: size })).toBe(md5(new Uint8Array(100))); // nothing past the object
  });

  it('ranged GET by RDMA moves only the range; reply 206', async () => {
    const size = 3 * MiB;
    const data = Buffer.alloc(size);
    for (let i = 0; i < size; i++) data[i] = (i * 13 + 1) & 0xff;
    await posix.putObject(ctx(), { bucket, key: 'range', body: Readable.from([data]), contentLength: size });
    const first = 1000;
    const last = 2 * MiB + 17;
    const len = last - first + 1;
    const { region } = await client.alloc(len);
    const token = await client.token(region, 0, len, 'get');
    const out = await cu.getObject(ctx(descriptor(token)), {
      bucket,
      key: 'range',
      range: { kind: 'range', first, last },
    });
    expect(out.range).toMatchObject({ start: first, end: last, size });
    expect(out.responseHeaders?.['x-amz-rdma-reply']).toBe('206');
    expect(out.responseHeaders?.['x-amz-rdma-bytes']).toBe(String(len));
    expect(await client.hash(region)).toBe(md5(data.subarray(first, last + 1)));
  });

  it('GET refuses an object larger than the token capacity before any transfer', async () => {
    await posix.putObject(ctx(), {
      bucket,
      key: 'big',
      body: Readable.from([Buffer.alloc(MiB + 1, 9)]),
      contentLength: MiB + 1,
    });
    const { region } = await client.alloc(2 * MiB);
    const token = await client.token(region, 0, MiB, 'get');
    const before = server.stats();
    const err = await rejection(cu.getObject(ctx(descriptor(token)), { bucket, key: 'big' }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('InvalidArgument');
    expect(err.headers['x-amz-rdma-reply']).toBeUndefined();
    expect(await client.hash(region)).toBe(md5(new Uint8Array(2 * MiB)));
    const after = server.stats();
    expect(after.directTransfers + after.tcpTransfers).toBe(before.directTransfers + before.tcpTransfers);
  });

  it('declines when the pool stays exhausted: PUT 501 + reply 501 and nothing stored; GET serves the body + reply 501', async () => {
    const held = [await pool.acquire(), await pool.acquire()];
    try {
      const region = await clientRegion(MiB, 4);
      const putToken = await client.token(region, 0, MiB, 'put');
      const err = await rejection(
        cu.putObject(ctx(descriptor(putToken)), { bucket, key: 'declined', body: empty() }),
      );
      expect(err.status).toBe(501);
      expect(err.code).toBe('NotImplemented');
      expect(err.headers['x-amz-rdma-reply']).toBe('501');
      expect(err.message).toMatch(/retry without x-amz-rdma-token/);
      expect(await exists('declined')).toBe(false);

      const data = Buffer.from('served over plain HTTP instead');
      await posix.putObject(ctx(), {
        bucket,
        key: 'get-declined',
        body: Readable.from([data]),
        contentLength: data.length,
      });
      const getToken = await client.token(region, 0, MiB, 'get');
      const out = await cu.getObject(ctx(descriptor(getToken)), { bucket, key: 'get-declined' });
      expect(out.responseHeaders).toEqual({
        'x-amz-rdma-reply': '501',
        'x-amz-rdma-decline-reason': 'pool-busy',
        'retry-after': '1',
      });
      expect((await readAll(out.body)).equals(data)).toBe(true);
      expect(cu.stats().declines['pool-busy']).toBeGreaterThanOrEqual(2);
    } finally {
      for (const l of held) l.release();
    }
  });

  it('declines when the client endpoint is unreachable (PUT 501 nothing stored; GET body + 501)', async () => {
    const region = await clientRegion(MiB, 5);
    const real = parseRdmaToken(await client.token(region, 0, MiB, 'put'));
    const dead = formatRdmaToken({ ...real, dctn: await deadPort() });
    const err = await rejection(
      cu.putObject(ctx(descriptor(dead)), { bucket, key: 'unreachable', body: empty() }),
    );
    expect(err.status).toBe(501);
    expect(err.headers['x-amz-rdma-reply']).toBe('501');
    expect(await exists('unreachable')).toBe(false);

    const data = Buffer.alloc(3 * MiB, 0x5a);
    await posix.putObject(ctx(), {
      bucket,
      key: 'unreachable-get',
      body: Readable.from([data]),
      contentLength: data.length,
    });
    const deadGet = formatRdmaToken({ ...real, size: 4 * MiB, dctn: await deadPort() });
    const out = await cu.getObject(ctx(descriptor(deadGet)), { bucket, key: 'unreachable-get' });
    expect(out.responseHeaders).toEqual({
      'x-amz-rdma-reply': '501',
      'x-amz-rdma-decline-reason': 'transport-unreachable',
    });
    expect((await readAll(out.body)).equals(data)).toBe(true);
  });

  it('declines a payload over the configured limit', async () => {
    const limited = new CuServer({ server, pool, maxTransferSize: MiB }, posix);
    const region = await clientRegion(MiB + 1, 6);
    const token = await client.token(region, 0, MiB + 1, 'put');
    const err = await rejection(
      limited.putObject(ctx(descriptor(token)), { bucket, key: 'too-big', body: empty() }),
    );
    expect(err.headers['x-amz-rdma-reply']).toBe('501');
    expect(await exists('too-big')).toBe(false);
  });

  it('reports every transfer to onTransfer listeners: done with its bytes and lanes, declined with its reason', async () => {
    const events: RdmaTransferEvent[] = [];
    const stop = cu.onTransfer((e) => events.push(e));
    const size = 3 * MiB;
    const region = await clientRegion(size, 9);
    await cu.putObject(ctx(descriptor(await client.token(region, 0, size, 'put'))), {
      bucket,
      key: 'events',
      body: empty(),
      contentLength: 0,
    });
    const out = await cu.getObject(ctx(descriptor(await client.token(region, 0, size, 'get'))), {
      bucket,
      key: 'events',
    });
    await readAll(out.body);
    const limited = new CuServer({ server, pool, maxTransferSize: MiB }, posix);
    const stopLimited = limited.onTransfer((e) => events.push(e));
    const declined = await limited.getObject(ctx(descriptor(await client.token(region, 0, size, 'get'))), {
      bucket,
      key: 'events',
    });
    expect((await readAll(declined.body)).length).toBe(size); // served in the body instead
    expect(events.map(({ ms: _ms, ...e }) => e)).toEqual([
      { requestId: 'cu-test', direction: 'put', outcome: 'done', bytes: size, lanes: expect.any(Number) },
      { requestId: 'cu-test', direction: 'get', outcome: 'done', bytes: size, lanes: expect.any(Number) },
      {
        requestId: 'cu-test',
        direction: 'get',
        outcome: 'declined',
        reason: 'size-over-limit',
        bytes: 0,
        lanes: 0,
      },
    ]);
    expect(events.every((e) => e.ms >= 0)).toBe(true);
    stop();
    stopLimited();
    await cu.putObject(ctx(descriptor(await client.token(region, 0, size, 'put'))), {
      bucket,
      key: 'events-2',
      body: empty(),
      contentLength: 0,
    });
    expect(events).toHaveLength(3);
  });

  it('a READ failing after acceptance → 500 InternalError, nothing stored', async () => {
    // The token claims 4 MiB but the client registered 1 MiB: the agent refuses the second chunk.
    const region = await clientRegion(MiB, 7);
    const real = parseRdmaToken(await client.token(region, 0, MiB, 'put'));
    const lying = formatRdmaToken(real, { override: { addr: real.addr, size: BigInt(4 * MiB) } });
    const err = await rejection(
      cu.putObject(ctx(descriptor(lying)), { bucket, key: 'broken', body: empty() }),
    );
    expect(err.status).toBe(500);
    expect(err.code).toBe('InternalError');
    expect(err.headers['x-amz-rdma-reply']).toBeUndefined();
    expect(await exists('broken')).toBe(false);
  });

  it('a client killed mid-PUT → 500, no object (its own child process)', async () => {
    const victim = await ClientProcess.start();
    try {
      const size = 6 * MiB;
      const { region } = await victim.alloc(size);
      await victim.fill(region, 8);
      const token = await victim.token(region, 0, size, 'put');
      hooked.onChunk = (i) => (i === 0 ? victim.kill() : undefined);
      const err = await rejection(
        cu.putObject(ctx(descriptor(token)), { bucket, key: 'killed', body: empty() }),
      );
      expect(err.status).toBe(500);
      expect(await exists('killed')).toBe(false);
    } finally {
      hooked.onChunk = undefined;
      await victim.kill();
    }
  });

  it('concurrent requests beyond the pool size wait their turn and all complete byte-exact', async () => {
    // One client agent: the per-agent cap must not be what makes them wait (the pool is under test).
    const patient = new CuServer({ server, pool, poolWaitMs: 60_000, chunkSize: MiB, maxPerAgent: 6 }, posix);
    const n = 6;
    const size = 2 * MiB + 1;
    const regions = await Promise.all(Array.from({ length: n }, (_, i) => clientRegion(size, 100 + i)));
    const waitsBefore = pool.stats().totalWaits;
    const puts = await Promise.all(
      regions.map(async (r, i) =>
        patient.putObject(ctx(descriptor(await client.token(r, 0, size, 'put'))), {
          bucket,
          key: `many-${i}`,
          body: empty(),
        }),
      ),
    );
    for (const [i, out] of puts.entries()) {
      expect(out.etag).toBe(`"${await client.hash(regions[i] as number)}"`);
    }
    const targets = await Promise.all(regions.map(() => client.alloc(size)));
    const gets = await Promise.all(
      targets.map(async (t, i) =>
        patient.getObject(ctx(descriptor(await client.token(t.region, 0, size, 'get'))), {
          bucket,
          key: `many-${i}`,
        }),
      ),
    );
    for (const [i, out] of gets.entries()) {
      expect(out.responseHeaders?.['x-amz-rdma-reply']).toBe('200');
      expect(await client.hash((targets[i] as { region: number }).region)).toBe(
        await client.hash(regions[i] as number),
      );
    }
    expect(pool.stats().totalWaits).toBeGreaterThan(waitsBefore);
  });

  it('delegates requests without a descriptor, and HEAD with one, unchanged', async () => {
    const data = Buffer.from('plain body');
    const out = await cu.putObject(ctx(), {
      bucket,
      key: 'plain',
      body: Readable.from([data]),
      contentLength: data.length,
    });
    expect(out.responseHeaders).toBeUndefined();
    const got = await cu.getObject(ctx(), { bucket, key: 'plain' });
    expect(got.responseHeaders).toBeUndefined();
    expect((await readAll(got.body)).equals(data)).toBe(true);
    const region = await clientRegion(MiB, 9);
    const token = await client.token(region, 0, MiB, 'get');
    const head = await cu.headObject(ctx(descriptor(token)), { bucket, key: 'plain' });
    expect(head.size).toBe(data.length);
    expect('responseHeaders' in head).toBe(false);
  });
});

describe('CuServer.shutdown', () => {
  it('closes the pool, then the RDMA server, then the wrapped backend', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cu-shutdown-'));
    const order: string[] = [];
    const server = new RdmaServer({ channels: 1 });
    const pool = BufferPool.create(server, { count: 1, size: MiB });
    const inner = new (class extends DelegatingBackend {
      override async shutdown() {
        order.push(`backend(pool closed=${pool.closed}, server connected=${server.connected})`);
      }
    })(await PosixBackend.open({ root: join(dir, 'root') }));
    const cu = new CuServer({ server, pool }, inner);
    expect(cu.name).toBe('cuserver(posix)');
    await cu.shutdown();
    expect(order).toEqual(['backend(pool closed=true, server connected=false)']);
    await rm(dir, { recursive: true, force: true });
  });
});
