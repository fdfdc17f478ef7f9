// Runs `bench/run.mjs --peer s3rver --tiny` (the plain S3 path comparison: the gateway and s3rver
// driven by the multi-process load generator, both clients) and checks the document: every
// operation verified, both clients and directions per scenario, ratios and server CPU present,
// the targets listed, the markdown written. Never asserts a time or the size of a ratio. An
// unknown peer is refused with a message naming the flag.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchProcess, removeOut, runBench } from './bench-run.js';

interface Side {
  opsPerSec: number;
  gbps: number;
  serverCpuMsPerOp: number;
  clientCpuMsPerOp: number;
}
interface PlainRow {
  sizeBytes: number;
  op: 'put' | 'get';
  client: 'light' | 'sdk';
  rounds: number;
  gateway: Side;
  peer: Side;
  ratio: { ops: number; serverCpuPerOp: number };
  verified: boolean;
  failures: string[];
}
interface PlainDoc {
  verified: boolean;
  mode: string;
  command: string;
  processes: number;
  ceilings: Record<string, number>;
  peers: Record<string, { rows: PlainRow[]; targets: { target: string; value: number | null }[] }>;
}

describe('npm run bench -- --peer s3rver --tiny', () => {
  let out: string;
  let doc: PlainDoc;

  beforeAll(async () => {
    ({ out, doc } = await runBench<PlainDoc>('bench-plain-', ['--peer', 's3rver', '--tiny'], 'plain-'));
  }, 300_000);
  afterAll(() => removeOut(out));

  it('verifies every operation of both clients in both directions, against both servers', () => {
    expect(doc.verified).toBe(true);
    expect(doc.command).toBe('npm run bench -- --peer s3rver --tiny');
    expect(doc.processes).toBeGreaterThanOrEqual(2);
    const rows = doc.peers.s3rver?.rows ?? [];
    expect(new Set(rows.map((r) => r.sizeBytes))).toEqual(new Set([4096, 1 << 20, 16 << 20]));
    expect(rows).toHaveLength(3 * 2 * 2);
    for (const r of rows) {
      expect(r.verified).toBe(true);
      expect(r.failures).toEqual([]);
      for (const side of [r.gateway, r.peer]) {
        expect(side.opsPerSec).toBeGreaterThan(0);
        expect(side.serverCpuMsPerOp).toBeGreaterThanOrEqual(0);
        expect(side.clientCpuMsPerOp).toBeGreaterThan(0);
      }
      expect(r.ratio.ops).toBeGreaterThan(0);
    }
    expect(new Set(rows.map((r) => `${r.op} ${r.client}`)).size).toBe(4);
  });

  it('lists the targets and writes the table with the MD5 ceiling of the same run', async () => {
    expect(doc.ceilings.md5NodeGBps).toBeGreaterThan(0);
    expect(doc.peers.s3rver?.targets).toHaveLength(7);
    const md = await readFile(join(out, 'latest.md'), 'utf8');
    expect(md).toContain('## gateway (posix) vs s3rver');
    expect(md).toContain('| size | op | client | conc | gateway ops/s | s3rver ops/s | ops × |');
    expect(md).toContain('One-core MD5 ceiling in this run');
  });

  it('refuses an unknown peer, naming the flag', async () => {
    const run = benchProcess(['--peer', 'minio', '--tiny']);
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--peer') });
  });
});
