#!/usr/bin/env node
// ETag modes side by side (docs/architecture.md, "ETag modes"): `npm run bench:etag [-- --sizes
// 256MiB,1GiB] [-n 2] [--rounds 2] [--part-size 8MiB] [--put-lanes 1|2] [--out DIR] [--label TEXT]`. Two gateways
// (posix on temp dirs, RDMA by softnic, the same child the tests start), one in md5 mode and one
// in parts mode, driven by the same cuobjtest --compare runs in alternating rounds (md5, parts,
// md5, parts, ...): RDMA and plain-HTTP PUT and GET per size, every transfer verified by
// cuobjtest, the one-core MD5 ceiling measured in the same run, ratios parts / md5 per round.
// Writes DIR/etag-<timestamp>.json and DIR/etag-latest.md (DIR defaults to bench/results).

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, hostname, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { missingBuildOutputs } from './lib/build-check.mjs';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '256MiB,1GiB' },
    n: { type: 'string', short: 'n', default: '2' },
    rounds: { type: 'string', default: '2' },
    'part-size': { type: 'string', default: '8MiB' },
    // channels an RDMA PUT may READ on (the gateway's --rdma-put-lanes): 1 or 2
    'put-lanes': { type: 'string', default: '2' },
    // set by bench/device/bundle.mjs's bundle: cuobjtest and the gateway child sit beside this file
    bundled: { type: 'boolean', default: false },
    out: { type: 'string', default: fileURLToPath(new URL('./results', import.meta.url)) },
    label: { type: 'string', default: `shared development machine (${hostname()})` },
  },
});
const missing = args.bundled ? [] : missingBuildOutputs();
if (missing.length > 0) {
  console.error(`[bench] not built: ${missing.join(', ')}\n[bench] run \`npm run build\` first`);
  process.exit(2);
}
if (args.bundled) {
  const { useCuobjtestBin } = await import('./lib/cuobjtest.mjs');
  useCuobjtestBin(fileURLToPath(new URL('./cuobjtest.mjs', import.meta.url)));
}
const { parseByteSize } = await import('../packages/cli-options/dist/index.js');
const { ceilingMedians, ceilingRound } = await import('./lib/ceiling-rounds.mjs');
const { comparePhase } = await import('./lib/phases.mjs');
const { startServer } = await import('./lib/server-process.mjs');
const { median, round, sizeName } = await import('./lib/stats.mjs');
const sizes = args.sizes.split(',').map((s) => parseByteSize(s));
const n = Number(args.n);
const rounds = Number(args.rounds);
const partSize = parseByteSize(args['part-size']);

const CREDS = { access: 'bench-access', secret: 'bench-secret' };
const POOL = { count: 16, size: 16 * 1024 * 1024 };
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const loadStart = load();
const startedAt = new Date();
const servers = [];
try {
  const ceilingSamples = [];
  await ceilingRound({ bytes: 256 << 20, opensslSeconds: 1 }, ceilingSamples);
  const start = async (extra) => {
    const s = {
      ...(await startServer('gateway', {
        ...CREDS,
        channels: 32,
        pool: POOL,
        putLanes: Number(args['put-lanes']),
        ...extra,
      })),
      ...CREDS,
    };
    servers.push(s);
    return s;
  };
  const gateways = { md5: await start({}), parts: await start({ etagPartSize: partSize }) };
  const plan = { warmup: 1, compare: [{ sizes, n }] };
  const runs = { md5: [], parts: [] };
  for (let r = 0; r < rounds; r++) {
    for (const mode of ['md5', 'parts']) {
      console.error(`[bench] round ${r + 1}/${rounds}: ${mode}`);
      runs[mode].push(await comparePhase(gateways[mode], plan));
    }
  }
  await ceilingRound({ bytes: 256 << 20, opensslSeconds: 1 }, ceilingSamples);
  const ceilings = ceilingMedians(ceilingSamples, 256 << 20);
  const md5Ceiling = ceilings.md5OpensslGBps ?? ceilings.md5NodeGBps;
  const pick = (row, path) => path.split('.').reduce((o, k) => o?.[k], row);
  const rows = sizes.map((size) => {
    const of = (mode) => runs[mode].map((round_) => round_.find((row) => row.sizeBytes === size));
    const figure = (mode, path) => round(median(of(mode).map((row) => pick(row, path))));
    const ratio = (path) =>
      round(median(of('parts').map((row, i) => pick(row, path) / pick(of('md5')[i], path))));
    const paths = {
      rdmaPut: 'rdma.putGBps',
      rdmaGet: 'rdma.getGBps',
      httpPut: 'stdS3.putGBps',
      httpGet: 'stdS3.getGBps',
    };
    const out = { sizeBytes: size };
    for (const [name, path] of Object.entries(paths)) {
      out[name] = { md5: figure('md5', path), parts: figure('parts', path), partsOverMd5: ratio(path) };
    }
    out.rdmaPutOfMd5Ceiling = {
      md5: round(out.rdmaPut.md5 / md5Ceiling),
      parts: round(out.rdmaPut.parts / md5Ceiling),
    };
    out.verified = [...of('md5'), ...of('parts')].every((row) => row?.verified);
    return out;
  });
  const doc = {
    timestamp: startedAt.toISOString(),
    command: `npm run bench:etag -- --sizes ${args.sizes} -n ${n} --rounds ${rounds} --part-size ${args['part-size']} --put-lanes ${args['put-lanes']}`,
    transport:
      'softnic on one host (process_vm_readv/writev between processes, not RDMA hardware); HTTP/1.1 on loopback',
    machine: {
      label: args.label,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverage: { start: loadStart, end: load() },
    },
    partSize,
    ceilings,
    rows,
    verified: rows.every((r) => r.verified),
  };
  const md = [
    `# ETag modes: md5 vs parts (${doc.machine.label}, ${doc.machine.cpus} CPUs, load ${loadStart.join('/')} → ${doc.machine.loadAverage.end.join('/')})`,
    '',
    `\`${doc.command}\`; one-core MD5 ceiling ${round(md5Ceiling)} GB/s; parts of ${sizeName(partSize)}; medians of ${rounds} alternating rounds × ${n} iterations; GB/s = 1e9 B/s`,
    '',
    '| size | RDMA PUT md5 | RDMA PUT parts | parts/md5 | PUT/MD5 ceiling (md5, parts) | RDMA GET md5 / parts | HTTP PUT md5 | HTTP PUT parts | parts/md5 | verified |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${sizeName(r.sizeBytes)} | ${r.rdmaPut.md5} | ${r.rdmaPut.parts} | ${r.rdmaPut.partsOverMd5}× | ${r.rdmaPutOfMd5Ceiling.md5}, ${r.rdmaPutOfMd5Ceiling.parts} | ${r.rdmaGet.md5} / ${r.rdmaGet.parts} | ${r.httpPut.md5} | ${r.httpPut.parts} | ${r.httpPut.partsOverMd5}× | ${r.verified} |`,
    ),
    '',
  ].join('\n');
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  mkdirSync(args.out, { recursive: true });
  writeFileSync(join(args.out, `etag-${stamp}.json`), `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(join(args.out, 'etag-latest.md'), md);
  console.log(md);
  process.exitCode = doc.verified ? 0 : 1;
} catch (err) {
  console.error(`[bench] failed: ${err?.stack ?? err}`);
  for (const s of servers) if (s.stderr()) console.error(`[bench] ${s.kind} stderr: ${s.stderr()}`);
  process.exitCode = 1;
} finally {
  for (const s of servers) await s.stop();
}
