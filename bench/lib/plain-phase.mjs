// The plain S3 path against peers (issue 22): the gateway and each peer driven by the same load
// generator (load/load.mjs: several worker processes, the SDK or a light presigned client), in
// alternating rounds (gateway, peer, gateway, peer …) per scenario, direction and client. Each
// row: ops/s and GB/s medians, the server CPU per operation (and per GB) from /proc, the client
// CPU per operation, and the medians of the per-pair ratios gateway / peer.

import { runLoad } from './load/load.mjs';
import { median, round, sizeName } from './stats.mjs';

const log = (...m) => console.error('[bench]', ...m);

const summary = (runs, size) => {
  const ops = runs.reduce((a, r) => a + r.ops, 0);
  const serverCpuMs = runs.reduce((a, r) => a + r.serverCpuMs, 0);
  return {
    opsPerSec: round(median(runs.map((r) => r.opsPerSec)), 1),
    gbps: round(median(runs.map((r) => r.gbps))),
    serverCpuMsPerOp: round(serverCpuMs / ops, 3),
    serverCpuSecPerGB: round(serverCpuMs / 1000 / ((ops * size) / 1e9), 3),
    clientCpuMsPerOp: round(runs.reduce((a, r) => a + r.clientCpuMs, 0) / ops, 3),
    serverCores: round(serverCpuMs / runs.reduce((a, r) => a + r.wallMs, 0), 2),
  };
};

/**
 * Untimed 4 KiB PUTs then GETs (light client) before the first timed round: a server is measured
 * as it runs in production, warm, not in its first seconds (the gateway's JIT, the peer's caches).
 */
async function warmServer(server, plan, tag) {
  if (!plan.serverWarmup) return;
  for (const op of ['put', 'get']) {
    const spec = { op, client: 'light', size: 4096, concurrency: 16, ops: plan.serverWarmup };
    await runLoad(server, {
      ...spec,
      processes: plan.processes,
      bucket: plan.bucket,
      tag: `warm-${tag}-${op}`,
    });
  }
}

/** Every scenario × direction × client, gateway vs `peer`, `rounds` alternating pairs. */
export async function plainPhase(gateway, peer, plan) {
  log(`${peer.kind}: warming both servers up (${plan.serverWarmup} untimed 4 KiB PUTs and GETs each)`);
  await warmServer(gateway, plan, 'gateway');
  await warmServer(peer, plan, peer.kind);
  const rows = [];
  for (const sc of plan.scenarios)
    for (const op of ['put', 'get'])
      for (const client of plan.clients) {
        log(
          `${peer.kind}: ${sizeName(sc.size)} ${op.toUpperCase()} ×${sc.ops}, ${sc.concurrency} in flight, ${client} client`,
        );
        const runs = { gateway: [], peer: [] };
        const spec = (r) => ({
          op,
          client,
          size: sc.size,
          concurrency: sc.concurrency,
          ops: sc.ops,
          processes: plan.processes,
          keysPerProcess: sc.keys,
          warmup: sc.warmup,
          bucket: plan.bucket,
          tag: `${sizeName(sc.size)}-${op}-${client}-${r}`,
        });
        for (let r = 0; r < plan.rounds; r++) {
          runs.gateway.push(await runLoad(gateway, spec(r)));
          runs.peer.push(await runLoad(peer, spec(r)));
        }
        const pair = (f) => round(median(runs.gateway.map((g, i) => f(g) / f(runs.peer[i]))));
        const all = [...runs.gateway, ...runs.peer];
        rows.push({
          sizeBytes: sc.size,
          op,
          client,
          concurrency: sc.concurrency,
          processes: Math.min(plan.processes, sc.concurrency),
          opsPerRound: sc.ops,
          rounds: plan.rounds,
          gateway: summary(runs.gateway, sc.size),
          peer: summary(runs.peer, sc.size),
          ratio: {
            ops: pair((x) => x.opsPerSec),
            // gateway CPU per op over the peer's: below 1 = the gateway spends less
            serverCpuPerOp: pair((x) => x.serverCpuMs / x.ops),
          },
          verified: all.every((x) => x.verified),
          failures: all.flatMap((x) => x.failures),
        });
      }
  return rows;
}
