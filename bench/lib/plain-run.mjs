// `npm run bench -- --peer rgw[,s3rver]`: the plain S3 path of the gateway against peers (issue 22)
// instead of the RDMA harness. The one-core MD5 ceiling is measured in the same run (one round
// before the transfers, the rest after); the gateway is test-kit's gateway child (posix on a temp
// dir, the RDMA plugin loaded as in production, plain HTTP requests only); each peer is started
// or found by peer-servers.mjs. Returns the result document.

import { ceilingMedians, ceilingRound } from './ceiling-rounds.mjs';
import { startPeer } from './peer-servers.mjs';
import { plainPhase } from './plain-phase.mjs';
import { plainTargets } from './report-plain-md.mjs';
import { startServer } from './server-process.mjs';

/** The file system the gateway's root is on (`df --output=fstype`), for the report. */
async function storeOf(root) {
  const { execFileSync } = await import('node:child_process');
  try {
    const fstype = execFileSync('df', ['--output=fstype', root], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .at(-1);
    return { root, fstype };
  } catch {
    return { root, fstype: 'unknown' };
  }
}

export async function runPlain(plan, peers, servers, gatewayDir) {
  const samples = [];
  await ceilingRound(plan.ceiling, samples);
  const creds = { access: 'bench-access', secret: 'bench-secret' };
  const gw = await startServer('gateway', {
    ...creds,
    channels: 32,
    pool: plan.pool,
    rootParent: gatewayDir,
  });
  servers.push(gw);
  const gateway = { ...creds, endpoint: gw.endpoint, region: 'us-east-1', pids: [gw.pid] };
  const results = {};
  for (const kind of peers) {
    const peer = await startPeer(kind);
    if (peer.skipped) {
      results[kind] = { skipped: peer.skipped };
      continue;
    }
    servers.push(peer);
    results[kind] = { rows: await plainPhase(gateway, peer, plan.plain) };
  }
  for (let i = 1; i < plan.ceiling.rounds; i++) await ceilingRound(plan.ceiling, samples);
  const ceilings = ceilingMedians(samples, plan.ceiling.bytes);
  const md5 = ceilings.md5OpensslGBps ?? ceilings.md5NodeGBps;
  const large = Math.max(...plan.plain.scenarios.map((s) => s.size));
  for (const r of Object.values(results)) if (r.rows) r.targets = plainTargets(r.rows, md5, large);
  return {
    gatewayStore: await storeOf(gw.root),
    ceilings,
    processes: plan.plain.processes,
    peers: results,
    verified: Object.values(results).every((r) => !r.rows || r.rows.every((x) => x.verified)),
  };
}
