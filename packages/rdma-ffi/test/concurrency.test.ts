// The event loop keeps running while 256 MiB move, and two transfers on two channels really run
// at the same time on the native side. Neither check is a timing assertion: the loop check
// counts callbacks that ran while the transfer was pending; the overlap check samples the two
// destination buffers and requires a moment when both were partly filled (serial transfers
// could never produce one). Elapsed times are printed for the record, never asserted.

import type { RdmaToken } from '@vgwrdma/rdma-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RdmaServer } from '../src/index.js';
import { ClientProcess, MiB, sha256 } from './helpers.js';

const BIG = 256 * MiB;
const PROBES = 256;

/** How many of PROBES evenly spread bytes have arrived (the client pattern is never 0). */
function arrived(bytes: Uint8Array): number {
  let n = 0;
  const step = Math.floor(bytes.length / PROBES);
  for (let i = 0; i < PROBES; i++) if (bytes[i * step + step - 1] !== 0) n++;
  return n;
}

describe.each([
  { name: 'tcp', allowDirect: false },
  { name: 'direct', allowDirect: true },
])('concurrency over $name', ({ allowDirect }) => {
  let client: ClientProcess;
  let server: RdmaServer;
  const tokens: RdmaToken[] = [];
  const regions: number[] = [];

  beforeAll(async () => {
    client = await ClientProcess.start({ allowDirect });
    server = new RdmaServer({ channels: 4, allowDirect });
    for (const seed of [1, 2]) {
      const { region } = await client.alloc(BIG);
      await client.fill(region, seed);
      regions.push(region);
      tokens.push(await client.token(region, 0, BIG, 'put'));
    }
  });
  afterAll(async () => {
    await server?.closeAsync();
    await client?.stop();
  });

  it('the event loop keeps ticking during a 256 MiB transfer', async () => {
    using buf = server.allocateBuffer(BIG);
    let timerFiredWhilePending = false;
    let immediates = 0;
    let done = false;
    const timer = setTimeout(() => {
      timerFiredWhilePending = !done;
    }, 0);
    const spin = () => {
      if (done) return;
      immediates++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const t0 = performance.now();
    const moved = await server.handlePut({ buffer: buf, size: BIG, token: tokens[0]! });
    done = true;
    clearTimeout(timer);
    console.log(
      `[${allowDirect ? 'direct' : 'tcp'}] 256 MiB PUT: ${(performance.now() - t0).toFixed(0)} ms, ${immediates} loop turns meanwhile`,
    );
    expect(moved).toBe(BIG);
    expect(timerFiredWhilePending).toBe(true);
    // a blocked loop would run the spinner at most once or twice before the completion
    expect(immediates).toBeGreaterThan(10);
    expect(sha256(buf.bytes)).toBe(await client.sha256(regions[0]!));
  });

  it('two transfers on two channels overlap on the native side', async () => {
    using a = server.allocateBuffer(BIG);
    using b = server.allocateBuffer(BIG);
    let bothPartial = false;
    let samples = 0;
    let done = false;
    const sample = () => {
      if (done) return;
      samples++;
      const na = arrived(a.bytes);
      const nb = arrived(b.bytes);
      if (na > 0 && na < PROBES && nb > 0 && nb < PROBES) bothPartial = true;
      setImmediate(sample);
    };
    setImmediate(sample);
    const t0 = performance.now();
    const [ma, mb] = await Promise.all([
      server.handlePut({ buffer: a, size: BIG, token: tokens[0]! }),
      server.handlePut({ buffer: b, size: BIG, token: tokens[1]! }),
    ]);
    done = true;
    console.log(
      `[${allowDirect ? 'direct' : 'tcp'}] 2 × 256 MiB PUT concurrently: ${(performance.now() - t0).toFixed(0)} ms, ${samples} samples, overlap seen: ${bothPartial}`,
    );
    expect([ma, mb]).toEqual([BIG, BIG]);
    expect(bothPartial).toBe(true);
    expect(sha256(a.bytes)).toBe(await client.sha256(regions[0]!));
    expect(sha256(b.bytes)).toBe(await client.sha256(regions[1]!));
  });
});

describe('many small transfers at once', () => {
  it('48 concurrent GETs on 48 channels all complete, each into its own window', async () => {
    const client = await ClientProcess.start({ allowDirect: false });
    const server = new RdmaServer({ channels: 48, allowDirect: false });
    try {
      expect(server.channelCount).toBe(48);
      const piece = 64 * 1024 + 3;
      const n = 48;
      const { region } = await client.alloc(n * piece);
      const token = await client.token(region, 0, n * piece, 'get');
      using buf = server.allocateBuffer(n * piece);
      for (let i = 0; i < buf.bytes.length; i++) buf.bytes[i] = (i * 7 + 1) & 0xff;
      // completions arrive in bursts larger than one poll batch (16)
      const moved = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          server.handleGet({
            buffer: buf,
            localOffset: i * piece,
            size: piece,
            token,
            remoteOffset: i * piece,
          }),
        ),
      );
      expect(moved).toEqual(Array(n).fill(piece));
      expect(server.inFlight).toBe(0);
      expect(await client.sha256(region)).toBe(sha256(buf.bytes));
    } finally {
      await server.closeAsync();
      await client.stop();
    }
  });
});
