// Runs `bench/run.mjs --listing --keys 120 --rounds 1 --no-peer` (the listing scenario against the
// gateway alone, both clients) and checks the document: no listing failure, both clients timed
// with the server's and the client's CPU, pages of the requested size, the RGW peer reported as
// skipped with the reason. Never asserts a time. A bad --keys is refused with a message naming it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchProcess, removeOut, runBench } from './bench-run.js';

interface Timed {
  totalMs: number;
  serverCpuMs: number;
  clientCpuMs: number;
}
interface ListingDoc {
  results: {
    keys: number;
    pageSize: number;
    failures: string[];
    servers: Record<
      string,
      Timed & { light: Timed & { perPageMs: number }; delimiterMs: number; prefixMs: number }
    >;
  }[];
  peer: { rgw: { skipped?: string } };
}

describe('npm run bench -- --listing --no-peer', () => {
  let out: string;
  let doc: ListingDoc;
  let printed: string;

  beforeAll(async () => {
    const args = ['--listing', '--keys', '120', '--rounds', '1', '--no-peer'];
    ({ out, doc, stdout: printed } = await runBench<ListingDoc>('bench-listing-', args, 'listing-'));
  }, 300_000);
  afterAll(() => removeOut(out));

  it('lists every key correctly through both clients and reports both', () => {
    const [r] = doc.results;
    expect(r?.keys).toBe(120);
    expect(r?.failures).toEqual([]);
    const gw = r?.servers.gateway;
    for (const side of [gw, gw?.light]) {
      expect(side?.totalMs).toBeGreaterThan(0);
      expect(side?.serverCpuMs).toBeGreaterThanOrEqual(0);
      expect(side?.clientCpuMs).toBeGreaterThan(0);
    }
    expect(gw?.delimiterMs).toBeGreaterThan(0);
    expect(printed).toContain('gateway, light client');
  });

  it('says why RGW was not measured', () => {
    expect(doc.peer.rgw.skipped).toMatch(/--no-peer/);
  });

  it('refuses a bad --keys, naming the flag', async () => {
    const err = await benchProcess(['--listing', '--keys', 'many', '--no-peer']).catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr).toMatch(/--keys/);
  });
});
