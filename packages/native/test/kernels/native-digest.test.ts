// Off-thread MD5 / SHA-256 (native-digest.ts over the shim's vgw_digest_*): the same values as
// node:crypto for bodies cut into small (batched, copied) and large (alone, in place) chunks; each
// chunk's `done` runs once and only after it was hashed; backpressure; and dispose() in flight.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nativeDigests } from '../../src/kernels/native-digest.js';
import { loadNativeLibrary } from '../../src/shim-library.js';

const factory = nativeDigests(loadNativeLibrary());
const available = factory !== undefined;
const offThreadDigest = (alg: 'md5' | 'sha256') => factory?.(alg);

describe('off-thread digests', () => {
  it('are available wherever the shim library loads (node exports its OpenSSL)', () => {
    expect(available).toBe(true);
  });

  it.skipIf(!available).each(['md5', 'sha256'] as const)(
    '%s equals node:crypto over mixed chunks',
    async (alg) => {
      const data = randomBytes(9 * 1024 * 1024 + 5);
      const cuts = [0, 1, 100, 65_536, 70_000, 1 << 20, 3 << 20, 13, 2 << 20, 1234, 8 << 20, data.length];
      const d = offThreadDigest(alg);
      expect(d).toBeDefined();
      let settled = 0;
      let at = 0;
      let pieces = 0;
      for (const cut of cuts) {
        const end = Math.min(cut + at, data.length);
        if (end <= at) continue;
        d?.update(data.subarray(at, end), () => settled++);
        pieces++;
        at = end;
      }
      const got = await d?.digest();
      expect(got?.toString('hex')).toBe(createHash(alg).update(data).digest('hex'));
      expect(settled).toBe(pieces);
      expect(d?.pendingBytes).toBe(0);
    },
  );

  it.skipIf(!available)(
    'keeps a batched copy alive while it is hashed (garbage collection churn)',
    async () => {
      const data = randomBytes(32 << 20);
      const d = offThreadDigest('sha256');
      for (let at = 0; at < data.length; at += 65_536) {
        d?.update(data.subarray(at, at + 65_536));
        // garbage in the young generation, so scavenges run while batches are in flight
        if (at % (1 << 20) === 0) {
          for (let i = 0; i < 2000; i++) void Buffer.allocUnsafeSlow(4096);
          await new Promise((r) => setImmediate(r));
        }
      }
      expect((await d?.digest())?.toString('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    },
  );

  it.skipIf(!available)('hashes an empty body', async () => {
    const d = offThreadDigest('md5');
    d?.update(new Uint8Array(0));
    expect((await d?.digest())?.toString('hex')).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });

  it.skipIf(!available)('runs `done` only after the chunk was hashed, and drained() waits', async () => {
    const d = offThreadDigest('sha256');
    const chunk = randomBytes(4 << 20);
    let done = false;
    d?.update(chunk, () => {
      done = true;
    });
    expect(done).toBe(false); // the hash runs on another thread; its completion comes later
    expect(d?.pendingBytes).toBe(chunk.length);
    await d?.drained(0);
    expect(done).toBe(true);
    expect(d?.pendingBytes).toBe(0);
    expect((await d?.digest())?.toString('hex')).toBe(createHash('sha256').update(chunk).digest('hex'));
  });

  it.skipIf(!available)('dispose() in flight settles every chunk and refuses more', async () => {
    const d = offThreadDigest('md5');
    const settled: number[] = [];
    for (let i = 0; i < 8; i++) d?.update(randomBytes(2 << 20), () => settled.push(i));
    d?.dispose();
    await d?.drained(0);
    await new Promise((r) => setTimeout(r, 200)); // the call in flight returns and frees
    expect(settled.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(() => d?.update(randomBytes(10))).toThrow(/after it ended/);
    await expect(d?.digest()).rejects.toThrow(/ended twice/);
  });

  it.skipIf(!available)('digest() once only; no update after it', async () => {
    const d = offThreadDigest('md5');
    d?.update(Buffer.from('abc'));
    expect((await d?.digest())?.toString('hex')).toBe('900150983cd24fb0d6963f7d28e17f72');
    await expect(d?.digest()).rejects.toThrow(/ended twice/);
    expect(() => d?.update(Buffer.from('x'))).toThrow(/after it ended/);
    await expect(d?.digest()).rejects.toMatchObject({
      name: 'InvalidStateError',
      code: 'VGW_ERR_INVALID_STATE',
    });
  });
});
