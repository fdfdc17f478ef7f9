// Runs the benchmark harness end to end in its tiny mode (every phase, small sizes) and checks
// the JSON document it writes and the summary files: shape, the transport named, every transfer
// verified, ceilings and figures present and positive. Never asserts a time or a ratio's size.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeOut, runBench } from './bench-run.js';

const MiB = 2 ** 20;

type GBps = { putGBps: number; getGBps: number };
interface Row {
  sizeBytes: number;
  verified: boolean;
  failures: string[];
}
interface CompareRow extends Row {
  iterations: number;
  transport: string;
  rdma: GBps;
  stdS3: GBps;
  ratio: { put: number; get: number };
  pairs: { put: number[]; get: number[] };
}
interface PeerRow extends Row {
  gatewayStdS3: GBps;
  s3rver: GBps;
  cpu: Record<'gateway' | 's3rver', Record<'put' | 'get', Cpu>>;
}
interface Cpu {
  ops: number;
  serverCpuMs: number;
  serverCpuMsPerOp: number;
  serverCpuSecPerGB: number;
  clientCores: number;
  boundBy: string;
}
interface BenchDoc {
  verified: boolean;
  mode: string;
  transport: string;
  machine: { label: string; loadAverage: { start: number[] } };
  pool: { count: number; size: number };
  ceilings: Record<string, number>;
  compare: CompareRow[];
  fractions: Record<string, number>[];
  peers: { s3rver: PeerRow[]; cephRgw: { status: string } };
  ops: Row &
    Record<'putsPerRound' | 'rounds' | `${'gatewayStdS3' | 'gatewayRdma' | 's3rver'}OpsPerSec`, number> & {
      cpu: Record<'gatewayStdS3' | 'gatewayRdma' | 's3rver', Cpu>;
    };
  rss: Row & { peakRssBytes: number; poolBytes: number };
  targets: { target: string }[];
}

describe('npm run bench -- --tiny', () => {
  let out: string;
  let doc: BenchDoc;
  let stdout: string;

  beforeAll(async () => {
    ({ out, doc, stdout } = await runBench<BenchDoc>('bench-test-', ['--tiny', '--label', 'vitest']));
  }, 120_000);
  afterAll(() => removeOut(out));

  it('verifies every transfer and names the transport and the machine', () => {
    expect(doc.verified).toBe(true);
    expect(doc.mode).toBe('tiny');
    expect(doc.transport).toMatch(/softnic/);
    expect(doc.transport).toMatch(/not RDMA hardware/);
    expect(doc.machine.label).toBe('vitest');
    expect(doc.machine.loadAverage.start).toHaveLength(3);
    const rows: Row[] = [...doc.compare, ...doc.peers.s3rver, doc.ops, doc.rss];
    for (const r of rows) {
      expect(r.verified).toBe(true);
      expect(r.failures).toEqual([]);
    }
  });

  it('compares RDMA and std-s3 by per-pair ratios, with fractions of the ceilings', () => {
    expect(doc.compare).toHaveLength(1);
    const row = doc.compare[0] as CompareRow;
    expect(row).toMatchObject({ sizeBytes: MiB, iterations: 2, transport: 'softnic' });
    for (const side of [row.rdma, row.stdS3]) {
      expect(side.putGBps).toBeGreaterThan(0);
      expect(side.getGBps).toBeGreaterThan(0);
    }
    expect(row.pairs.put).toHaveLength(2);
    expect(row.pairs.get).toHaveLength(2);
    expect(row.ratio.get).toBeGreaterThan(0);
    for (const k of ['memcpyGBps', 'processVmWritevGBps', 'md5NodeGBps'])
      expect(doc.ceilings[k]).toBeGreaterThan(0);
    expect(Object.keys(doc.fractions[0] ?? {}).sort()).toEqual(
      [
        'rdmaGetOfMemcpy',
        'rdmaGetOfProcessVmWritev',
        'rdmaPutOfMd5',
        'rdmaPutOfNodeMd5',
        'sizeBytes',
        'stdS3GetOfMemcpy',
      ].sort(),
    );
  });

  it('measures s3rver beside the gateway, 4 KiB PUT ops/s, and the gateway peak RSS', () => {
    const peer = doc.peers.s3rver[0] as PeerRow;
    expect(peer.s3rver.putGBps).toBeGreaterThan(0);
    expect(peer.s3rver.getGBps).toBeGreaterThan(0);
    expect(peer.gatewayStdS3.getGBps).toBeGreaterThan(0);
    expect(doc.peers.cephRgw.status).toMatch(/^(skipped|measured)$/);
    expect(doc.ops.sizeBytes).toBe(4096);
    for (const k of ['gatewayStdS3OpsPerSec', 'gatewayRdmaOpsPerSec', 's3rverOpsPerSec'] as const)
      expect(doc.ops[k]).toBeGreaterThan(0);
    expect(doc.rss.peakRssBytes).toBeGreaterThan(0);
    expect(doc.rss.poolBytes).toBe(doc.pool.count * doc.pool.size);
    expect(doc.targets.map((t) => t.target)).toHaveLength(8);
  });

  it("records the servers' CPU time in the timed windows and the side that bounds each figure", () => {
    const peer = doc.peers.s3rver[0] as PeerRow;
    for (const server of ['gateway', 's3rver'] as const)
      for (const d of ['put', 'get'] as const) {
        const c = peer.cpu[server][d];
        expect(c.ops).toBe(2);
        expect(c.serverCpuMs).toBeGreaterThanOrEqual(0);
        expect(c.clientCores).toBeGreaterThan(0);
        expect(c.boundBy).toMatch(/server|client|both|cores|neither/);
      }
    for (const c of Object.values(doc.ops.cpu)) {
      expect(c.ops).toBe(doc.ops.putsPerRound * doc.ops.rounds);
      expect(c.serverCpuMsPerOp).toBeGreaterThanOrEqual(0);
    }
  });

  it('writes the markdown summary and the SVG chart', async () => {
    const md = await readFile(join(out, 'latest.md'), 'utf8');
    expect(md).toContain('| size | n | RDMA PUT');
    expect(md).toContain('### CPU of 4KiB PUTs');
    expect(stdout).toContain('## Targets');
    const svg = await readFile(join(out, 'latest.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('RDMA GET');
  });
});
