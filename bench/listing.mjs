#!/usr/bin/env node
// `npm run bench -- --listing [--keys 20000,100000] [--rounds 3] [--gateway-dir DIR] [--no-peer] [--out DIR]`:
// the listing scenario of lib/listing.mjs against the gateway (posix backend on a temp dir, its
// own process) and Ceph RGW, found or started as for `--peer rgw` (lib/peer-servers.mjs: test-kit's
// fixture, or the one VGW_TEST_RGW=<state.json> names). When RGW cannot run the gateway is measured
// alone and the peer is reported skipped with the reason.
// Writes DIR/listing-<timestamp>.json and prints a markdown table. Exit 1 when a listing was wrong.

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, hostname, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { missingBuildOutputs } from './lib/build-check.mjs';

const { values: args } = parseArgs({
  options: {
    listing: { type: 'boolean', default: true },
    keys: { type: 'string', default: '20000,100000' },
    rounds: { type: 'string', default: '3' },
    'gateway-dir': { type: 'string' },
    // the gateway alone (the bench's own test)
    'no-peer': { type: 'boolean', default: false },
    out: { type: 'string', default: fileURLToPath(new URL('./results', import.meta.url)) },
    label: { type: 'string', default: `shared development machine (${hostname()})` },
  },
});
const keyCounts = args.keys.split(',').map((k) => Number(k));
const rounds = Number(args.rounds);
if (keyCounts.some((k) => !Number.isInteger(k) || k < 1) || !Number.isInteger(rounds) || rounds < 1) {
  console.error('[bench:listing] --keys takes positive integers (20000,100000), --rounds a positive integer');
  process.exit(2);
}
const missing = missingBuildOutputs();
if (missing.length > 0) {
  console.error(`[bench:listing] not built: ${missing.join(', ')}; run \`npm run build\` first`);
  process.exit(2);
}
const { listingAt } = await import('./lib/listing.mjs');
const { listingMarkdown } = await import('./lib/listing-md.mjs');
const { startServer } = await import('./lib/server-process.mjs');
const { startPeer } = await import('./lib/peer-servers.mjs');

const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const startedAt = new Date();
const loadStart = load();
const CREDS = { access: 'bench-access', secret: 'bench-secret' };
const gateway = await startServer('gateway', { ...CREDS, rdma: false, rootParent: args['gateway-dir'] });
try {
  const peer = args['no-peer'] ? { skipped: 'not asked for (--no-peer)' } : await startPeer('rgw');
  const servers = [{ name: 'gateway', ...CREDS, endpoint: gateway.endpoint, pids: [gateway.pid] }];
  if (!peer.skipped) servers.push({ ...peer, name: 'rgw' });
  else console.error(`[bench:listing] RGW skipped: ${peer.skipped}`);
  const results = [];
  for (const n of keyCounts) results.push(await listingAt(servers, n, rounds, 'i22-list-bench'));
  const doc = {
    timestamp: startedAt.toISOString(),
    command: `npm run bench -- --listing --keys ${args.keys} --rounds ${rounds}${args['gateway-dir'] ? ` --gateway-dir ${args['gateway-dir']}` : ''}`,
    client: '@aws-sdk/client-s3 ListObjectsV2, MaxKeys 1000, one request at a time',
    machine: {
      label: args.label,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverage: { start: loadStart, end: load() },
    },
    peer: peer.skipped ? { rgw: { skipped: peer.skipped } } : { rgw: { endpoint: peer.endpoint } },
    results,
  };
  mkdirSync(args.out, { recursive: true });
  const file = join(args.out, `listing-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(listingMarkdown(doc));
  console.error(`[bench:listing] wrote ${file}`);
  const failures = results.flatMap((r) => r.failures);
  for (const f of failures) console.error(`[bench:listing] WRONG: ${f}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
} catch (err) {
  console.error(`[bench:listing] failed: ${err?.stack ?? err}\n${gateway.stderr()}`);
  process.exitCode = 1;
} finally {
  await gateway.stop();
}
