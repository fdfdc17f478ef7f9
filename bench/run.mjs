#!/usr/bin/env node
// The benchmark harness (issue 7): `npm run bench [-- --quick | --tiny] [--out DIR] [--label TEXT]`.
// Starts the gateway (posix on a temp dir, RDMA by softnic on this host) and s3rver, each in its
// own process on loopback, and drives them with cuobjtest: RDMA vs std-s3 alternately, std-s3 vs
// s3rver alternately, 4 KiB PUT ops/s, and the gateway's peak RSS under concurrent RDMA GETs,
// with the copy/hash ceilings measured in the same run. Every transfer is verified by cuobjtest.
// Writes DIR/<timestamp>.json, DIR/latest.md and DIR/latest.svg (DIR defaults to bench/results).
// `--peer rgw[,s3rver]` runs the plain S3 path comparison instead (lib/plain-run.mjs: the gateway
// vs Ceph RGW and/or s3rver, same load generator, server CPU per operation) and writes
// DIR/plain-<timestamp>.json and DIR/latest.md.
// Exit status 0 = every transfer verified, 1 = a failure, 2 = not built / usage.

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, hostname, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { missingBuildOutputs } from './lib/build-check.mjs';
import { useCuobjtestBin } from './lib/cuobjtest.mjs';
import { PLANS } from './lib/plans.mjs';

// The listing scenario is its own harness (listing.mjs, issue 22 item 5).
if (process.argv.includes('--listing')) {
  await import('./listing.mjs');
  process.exit(process.exitCode ?? 0);
}

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    tiny: { type: 'boolean', default: false },
    // set by bench/device/bundle.mjs's bundle: cuobjtest and the servers sit beside this file
    bundled: { type: 'boolean', default: false },
    peer: { type: 'string' },
    // with --peer: only these load-generator clients (light, sdk; default both)
    clients: { type: 'string' },
    // with --peer: where the gateway's posix root is made (default the OS temp dir); /dev/shm puts
    // it in memory like the peer's memstore OSD
    'gateway-dir': { type: 'string' },
    out: { type: 'string', default: fileURLToPath(new URL('./results', import.meta.url)) },
    label: {
      type: 'string',
      default: `shared development machine (${hostname()})`,
    },
  },
});
const mode = args.tiny ? 'tiny' : args.quick ? 'quick' : 'full';
const plan = PLANS[mode];
const CREDS = { access: 'bench-access', secret: 'bench-secret' };
const CEPH = {
  status: 'skipped',
  reason:
    'measured by `npm run bench -- --peer rgw` (the plain S3 path against Ceph RGW), not in this harness',
};

const peers = args.peer?.split(',').filter(Boolean);
const { PEER_NAMES } = await import('./lib/peer-servers.mjs');
const unknownPeer = peers?.find((p) => !PEER_NAMES.includes(p));
if (unknownPeer !== undefined || peers?.length === 0) {
  console.error(`[bench] --peer: expected a list of ${PEER_NAMES.join(', ')}, got '${args.peer}'`);
  process.exit(2);
}
const CLIENT_KINDS = ['light', 'sdk'];
const clients = args.clients?.split(',').filter(Boolean);
if (clients && (clients.length === 0 || clients.some((c) => !CLIENT_KINDS.includes(c)))) {
  console.error(`[bench] --clients: expected a list of ${CLIENT_KINDS.join(', ')}, got '${args.clients}'`);
  process.exit(2);
}
if (clients) plan.plain.clients = clients;
const missing = args.bundled ? [] : missingBuildOutputs();
if (missing.length > 0) {
  console.error(
    `[bench] not built: ${missing.join(', ')}\n[bench] run \`npm run build\` (and \`npx pnpm@10.34.9 install\`) first`,
  );
  process.exit(2);
}
if (args.bundled) useCuobjtestBin(fileURLToPath(new URL('./cuobjtest.mjs', import.meta.url)));
// imported after the check: these load the built packages
const { ceilingMedians, ceilingRound, fractions } = await import('./lib/ceiling-rounds.mjs');
const { svgChart } = await import('./lib/chart-svg.mjs');
const { comparePhase, opsPhase, peersPhase, rssPhase } = await import('./lib/phases.mjs');
const { markdownSummary } = await import('./lib/report-md.mjs');
const { startServer } = await import('./lib/server-process.mjs');
const { evaluateTargets } = await import('./lib/targets.mjs');

const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const startedAt = new Date();
const loadStart = load();
const t0 = performance.now();
const servers = [];
const machine = () => ({
  label: args.label,
  hostname: hostname(),
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  node: process.version,
  loadAverage: { start: loadStart, end: load() },
});
if (peers) {
  const { runPlain } = await import('./lib/plain-run.mjs');
  const { plainMarkdown } = await import('./lib/report-plain-md.mjs');
  try {
    const result = await runPlain(plan, peers, servers, args['gateway-dir']);
    const doc = {
      timestamp: startedAt.toISOString(),
      mode,
      command: `npm run bench -- --peer ${peers.join(',')}${mode === 'full' ? '' : ` --${mode}`}${clients ? ` --clients ${clients.join(',')}` : ''}${args['gateway-dir'] ? ` --gateway-dir ${args['gateway-dir']}` : ''}`,
      machine: machine(),
      durationSec: Number(((performance.now() - t0) / 1000).toFixed(1)),
      ...result,
    };
    const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
    mkdirSync(args.out, { recursive: true });
    writeFileSync(join(args.out, `plain-${stamp}.json`), `${JSON.stringify(doc, null, 2)}\n`);
    writeFileSync(join(args.out, 'latest.md'), plainMarkdown(doc));
    console.log(plainMarkdown(doc));
    console.error(
      `[bench] wrote ${join(args.out, `plain-${stamp}.json`)} and latest.md in ${doc.durationSec} s`,
    );
    process.exitCode = doc.verified ? 0 : 1;
  } catch (err) {
    console.error(`[bench] failed: ${err?.stack ?? err}`);
    for (const s of servers) if (s.stderr?.()) console.error(`[bench] ${s.kind} stderr: ${s.stderr()}`);
    process.exitCode = 1;
  } finally {
    for (const s of servers) await s.stop();
  }
} else
  try {
    const ceilingSamples = [];
    await ceilingRound(plan.ceiling, ceilingSamples);
    const gateway = {
      ...(await startServer('gateway', { ...CREDS, channels: 32, pool: plan.pool })),
      ...CREDS,
    };
    servers.push(gateway);
    const s3rver = { ...(await startServer('s3rver')), access: 'S3RVER', secret: 'S3RVER' };
    servers.push(s3rver);

    const compare = await comparePhase(gateway, plan);
    const peers = await peersPhase(gateway, s3rver, plan);
    const ops = await opsPhase(gateway, s3rver, plan);
    for (let i = 1; i < plan.ceiling.rounds; i++) await ceilingRound(plan.ceiling, ceilingSamples);
    // a fresh gateway, so that its peak RSS belongs to this test alone
    const rssGateway = {
      ...(await startServer('gateway', { ...CREDS, channels: 32, pool: plan.pool })),
      ...CREDS,
    };
    servers.push(rssGateway);
    const rss = await rssPhase(rssGateway, plan);

    const ceilings = ceilingMedians(ceilingSamples, plan.ceiling.bytes);
    const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
    const doc = {
      timestamp: startedAt.toISOString(),
      mode,
      command: `npm run bench${mode === 'full' ? '' : ` -- --${mode}`}`,
      transport: `softnic on one host (process_vm_readv/writev between processes, not RDMA hardware); std-s3 = HTTP/1.1 bodies on loopback`,
      machine: machine(),
      durationSec: Number(((performance.now() - t0) / 1000).toFixed(1)),
      pool: plan.pool,
      warmupIterations: plan.warmup,
      ceilings,
      compare,
      fractions: fractions(compare, ceilings),
      peers: { s3rver: peers, cephRgw: CEPH },
      ops,
      rss,
      chartFile: 'latest.svg',
    };
    doc.targets = evaluateTargets(doc);
    doc.verified = [...compare, ...peers, ops, rss].every((r) => r.verified);
    mkdirSync(args.out, { recursive: true });
    writeFileSync(join(args.out, `${stamp}.json`), `${JSON.stringify(doc, null, 2)}\n`);
    writeFileSync(join(args.out, 'latest.svg'), svgChart(doc));
    writeFileSync(join(args.out, 'latest.md'), markdownSummary(doc));
    console.log(markdownSummary(doc));
    console.error(
      `[bench] wrote ${join(args.out, `${stamp}.json`)}, latest.md, latest.svg in ${doc.durationSec} s`,
    );
    process.exitCode = doc.verified ? 0 : 1;
  } catch (err) {
    console.error(`[bench] failed: ${err?.stack ?? err}`);
    for (const s of servers) if (s.stderr()) console.error(`[bench] ${s.kind} stderr: ${s.stderr()}`);
    process.exitCode = 1;
  } finally {
    for (const s of servers) await s.stop();
  }
