import { InvalidArgumentError, InvalidStateError, VgwrdmaError } from '@vgwrdma/errors';
import { HostClient, RdmaServer } from '@vgwrdma/rdma-ffi';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BufferPool } from '../src/buffer-pool.js';
import { PoolError } from '../src/errors.js';

const KiB = 1024;
const SIZE = 256 * KiB;

/** The rejection of a promise (fails the test when it resolves). */
async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('BufferPool over a real RdmaServer', () => {
  let server: RdmaServer;
  beforeAll(() => {
    server = new RdmaServer({ channels: 2 });
  });
  afterAll(async () => {
    await server.closeAsync();
  });

  it('allocates count buffers of size, distinct and zeroed, and leases each once', async () => {
    const pool = BufferPool.create(server, { count: 3, size: SIZE });
    expect(pool.stats()).toMatchObject({ count: 3, bufferSize: SIZE, free: 3, inUse: 0, waiting: 0 });
    const leases = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    expect(new Set(leases.map((l) => l.address)).size).toBe(3);
    for (const l of leases) {
      expect(l.size).toBe(SIZE);
      expect(l.bytes.byteLength).toBe(SIZE);
      expect(l.bytes.every((b) => b === 0)).toBe(true);
    }
    expect(pool.stats()).toMatchObject({ free: 0, inUse: 3, acquired: 3, totalWaits: 0 });
    expect(pool.tryAcquire()).toBeUndefined();
    for (const l of leases) l.release();
    leases[0]?.release(); // idempotent: counts do not go negative or double
    expect(pool.stats()).toMatchObject({ free: 3, inUse: 0 });
    expect(() => leases[0]?.bytes).toThrow(InvalidStateError);
    await pool.close();
  });

  it('returns the buffer when a `using` block ends', async () => {
    const pool = BufferPool.create(server, { count: 1, size: SIZE });
    let address = 0n;
    {
      using lease = await pool.acquire();
      address = lease.address;
      expect(pool.stats().inUse).toBe(1);
    }
    expect(pool.stats()).toMatchObject({ inUse: 0, free: 1 });
    const again = pool.tryAcquire();
    expect(again?.address).toBe(address);
    again?.release();
    await pool.close();
  });

  it('declines a wait that exceeds its bound (VGW_ERR_POOL_TIMEOUT), never leaving it pending', async () => {
    const pool = BufferPool.create(server, { count: 1, size: SIZE, defaultWaitMs: 20 });
    const held = await pool.acquire();
    const err = await rejectionOf(pool.acquire({ timeoutMs: 30 }));
    expect(err).toBeInstanceOf(PoolError);
    expect(err).toBeInstanceOf(VgwrdmaError);
    expect(err).toMatchObject({ name: 'PoolError', code: 'VGW_ERR_POOL_TIMEOUT' });
    const viaDefault = await rejectionOf(pool.acquire());
    expect((viaDefault as PoolError).code).toBe('VGW_ERR_POOL_TIMEOUT');
    const immediate = await rejectionOf(pool.acquire({ timeoutMs: 0 }));
    expect((immediate as PoolError).code).toBe('VGW_ERR_POOL_TIMEOUT');
    expect(pool.stats()).toMatchObject({ waiting: 0, totalWaits: 2, timeouts: 3, inUse: 1 });
    held.release();
    await pool.close();
  });

  it('hands a released buffer to the oldest waiter first', async () => {
    const pool = BufferPool.create(server, { count: 1, size: SIZE });
    const held = await pool.acquire();
    const order: string[] = [];
    const tagged = (tag: string) =>
      pool.acquire({ timeoutMs: 60_000 }).then((l) => {
        order.push(tag);
        return l;
      });
    const a = tagged('a');
    const b = tagged('b');
    expect(pool.stats()).toMatchObject({ waiting: 2, totalWaits: 2 });
    expect(pool.tryAcquire()).toBeUndefined(); // no queue jumping
    held.release();
    const la = await a;
    expect(la.address).toBe(held.address);
    expect(pool.stats()).toMatchObject({ waiting: 1, inUse: 1, free: 0 });
    la.release();
    (await b).release();
    expect(order).toEqual(['a', 'b']);
    expect(pool.stats()).toMatchObject({ waiting: 0, inUse: 0, free: 1 });
    await pool.close();
  });

  it('stops waiting when the signal aborts, with its reason', async () => {
    const pool = BufferPool.create(server, { count: 1, size: SIZE });
    const held = await pool.acquire();
    const ac = new AbortController();
    const waiting = pool.acquire({ signal: ac.signal, timeoutMs: 60_000 });
    expect(pool.stats().waiting).toBe(1);
    const reason = new Error('client went away');
    ac.abort(reason);
    expect(await rejectionOf(waiting)).toBe(reason);
    expect(pool.stats().waiting).toBe(0);
    expect(await rejectionOf(pool.acquire({ signal: ac.signal }))).toBe(reason); // already aborted
    held.release();
    expect(pool.stats()).toMatchObject({ free: 1, inUse: 0 }); // nobody was handed the buffer
    await pool.close();
  });

  it('close() rejects waiters and later acquires (VGW_ERR_POOL_CLOSED)', async () => {
    const pool = BufferPool.create(server, { count: 1, size: SIZE });
    const held = await pool.acquire();
    const waiter = pool.acquire({ timeoutMs: 60_000 });
    const closing = pool.close();
    expect(((await rejectionOf(waiter)) as PoolError).code).toBe('VGW_ERR_POOL_CLOSED');
    expect(((await rejectionOf(pool.acquire())) as PoolError).code).toBe('VGW_ERR_POOL_CLOSED');
    expect(pool.stats().waiting).toBe(0);
    held.release();
    await closing;
  });

  it('close() frees free buffers now and each leased one when it is released', async () => {
    const pool = BufferPool.create(server, { count: 2, size: SIZE });
    const held = await pool.acquire();
    const other = await pool.acquire();
    const freeBuffer = other.buffer;
    other.release();
    let closed = false;
    const closing = pool.close().then(() => {
      closed = true;
    });
    expect(freeBuffer.closed).toBe(true);
    expect(held.buffer.closed).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    held.release();
    await closing;
    expect(held.buffer.closed).toBe(true);
    expect(pool.stats()).toMatchObject({ free: 0, inUse: 0 });
  });

  it('cuts a lease into slices and rejects windows outside the buffer', async () => {
    const pool = BufferPool.create(server, { count: 1, size: 10 * KiB });
    using lease = await pool.acquire();
    const s = lease.slices(4 * KiB);
    expect(s.map((x) => [x.offset, x.length])).toEqual([
      [0, 4096],
      [4096, 4096],
    ]);
    expect(lease.slices(4 * KiB, 1)).toHaveLength(1);
    expect(lease.slices(64 * KiB).map((x) => x.length)).toEqual([10 * KiB]);
    s[1]?.bytes.fill(7);
    expect(lease.bytes[4096]).toBe(7);
    expect(lease.bytes[4095]).toBe(0);
    expect(() => lease.slice(8 * KiB, 4 * KiB)).toThrow(InvalidArgumentError);
    expect(() => lease.slice(-1, 1)).toThrow(InvalidArgumentError);
    expect(() => lease.slices(0)).toThrow(InvalidArgumentError);
    lease.release();
    await pool.close();
  });

  it('refuses a bad shape and frees what it allocated', () => {
    expect(() => BufferPool.create(server, { count: 0, size: SIZE })).toThrow(InvalidArgumentError);
    expect(() => BufferPool.create(server, { count: 1, size: 0 })).toThrow(InvalidArgumentError);
    expect(() =>
      BufferPool.create(server, { count: 1, size: SIZE, defaultWaitMs: Number.POSITIVE_INFINITY }),
    ).toThrow(InvalidArgumentError);
  });

  it('pool buffers are registered: an RDMA READ lands in a slice at its offset', async () => {
    using client = new HostClient();
    using region = client.allocate(64 * KiB);
    for (let i = 0; i < region.size; i++) region.bytes[i] = (i * 7 + 3) & 0xff;
    const pool = BufferPool.create(server, { count: 1, size: 128 * KiB });
    {
      using lease = await pool.acquire();
      const [, second] = lease.slices(64 * KiB);
      if (!second) throw new Error('two slices expected');
      const token = parseRdmaToken(region.token(0, 64 * KiB, 'put'));
      await server.handlePut({
        buffer: second.buffer,
        localOffset: second.offset,
        size: second.length,
        token,
      });
      expect(Buffer.from(second.bytes).equals(Buffer.from(region.bytes))).toBe(true);
      expect(lease.bytes.subarray(0, 64 * KiB).every((b) => b === 0)).toBe(true);
    }
    await pool.close();
  });
});
