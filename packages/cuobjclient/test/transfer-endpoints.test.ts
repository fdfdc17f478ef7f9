// transfer-endpoints: what each kind of source and destination reports (memory kind, size) and
// how a part moves: host bytes and reader/writer on the host, GPU memory through the session's
// device twin copies at the part's offset; the checks' messages. Parts of 1 MiB and more are
// copied on the libuv pool (host-copy.ts): the bytes land at the part's offset all the same, and a
// typed array of wider elements is moved by its bytes.
import { describe, expect, it } from 'vitest';
import { downloadEndpoint, uploadEndpoint } from '../src/transfer-endpoints.js';

describe('transfer endpoints', () => {
  it('moves a part for each kind and checks device addresses', async () => {
    const src = uploadEndpoint(new Uint8Array([1, 2, 3, 4, 5]));
    expect([src.memory, src.size]).toEqual(['host', 5]);
    const view = new Uint8Array(2);
    await src.part(view, {} as never, { offset: 2, length: 2 } as never);
    expect([...view]).toEqual([3, 4]);
    const r = uploadEndpoint({
      size: 9,
      read: async (o: number, into: Uint8Array) => void into.fill(o),
    } as never);
    await r.part(view, {} as never, { offset: 7, length: 2 } as never);
    expect([r.size, ...view]).toEqual([9, 7, 7]);
    const calls: unknown[] = [];
    const dev = {
      twinFromDevice: async (a: bigint, n: number) => void calls.push(['from', a, n]),
      twinToDevice: async (a: bigint, n: number) => void calls.push(['to', a, n]),
    };
    const u = uploadEndpoint({ memory: 'cuda', devicePtr: 100n, size: 10 } as never);
    await u.part(view, { device: dev } as never, { offset: 4, length: 3 } as never);
    const d = downloadEndpoint({ memory: 'cuda', devicePtr: 200n, size: 10 } as never);
    await d.part(view, { device: dev } as never, { offset: 1, length: 5 } as never);
    expect(calls).toEqual([
      ['from', 104n, 3],
      ['to', 201n, 5],
    ]);
    expect(() => d.part(view, { device: undefined } as never, { offset: 1, length: 5 } as never)).toThrow(
      'expected a CUDA session',
    );
    expect(() => uploadEndpoint({ memory: 'cuda', devicePtr: 0n, size: 1 } as never)).toThrow(
      'source.devicePtr',
    );
    expect(() => downloadEndpoint({ memory: 'cuda', devicePtr: 1n, size: -1 } as never)).toThrow(
      'destination.size',
    );
    expect(() => downloadEndpoint({} as never)).toThrow('destination must be');
    const out = new Uint8Array(6);
    const h = downloadEndpoint(out);
    await h.part(new Uint8Array([9, 9]), {} as never, { offset: 3, length: 2 } as never);
    expect([h.size, ...out]).toEqual([6, 0, 0, 0, 9, 9, 0]);
    const w: unknown[] = [];
    const wr = downloadEndpoint({
      capacity: 4,
      write: async (o: number, b: Uint8Array) => void w.push([o, b.length]),
    } as never);
    await wr.part(new Uint8Array(3), {} as never, { offset: 1, length: 3 } as never);
    expect([wr.size, wr.memory, w]).toEqual([4, 'host', [[1, 3]]]);
  });

  it('copies large parts off the event loop at their offsets, both ways; any typed array by its bytes', async () => {
    const MiB = 1 << 20;
    const data = new Uint8Array(5 * MiB).map((_, i) => (i * 7 + 3) & 0xff);
    const src = uploadEndpoint(data);
    const session = new Uint8Array(2 * MiB);
    await src.part(session, {} as never, { offset: 3 * MiB, length: 2 * MiB } as never);
    expect(Buffer.from(session).equals(Buffer.from(data.subarray(3 * MiB)))).toBe(true);
    const out = new Uint8Array(5 * MiB);
    const dst = downloadEndpoint(out);
    await dst.part(session, {} as never, { offset: MiB, length: 2 * MiB } as never);
    expect(Buffer.from(out.subarray(MiB, 3 * MiB)).equals(Buffer.from(data.subarray(3 * MiB)))).toBe(true);
    expect(out.subarray(0, MiB).every((b) => b === 0)).toBe(true);
    expect(out.subarray(3 * MiB).every((b) => b === 0)).toBe(true);
    const words = new Float64Array(MiB / 4); // 2 MiB of bytes
    const w = uploadEndpoint(words as never);
    expect(w.size).toBe(2 * MiB);
    const into = new Uint8Array(MiB).fill(1);
    await w.part(into, {} as never, { offset: MiB, length: MiB } as never);
    expect(into.every((b) => b === 0)).toBe(true);
  });
});
