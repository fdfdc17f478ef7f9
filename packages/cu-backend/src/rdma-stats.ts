// The RDMA data path's counters as one JSON document — CuServer's transfers, declines and in-use
// gauges, the buffer pool, and the transport's own counters. rdmaPlugin serves it as the admin
// operation `PATCH /rdma-stats`; operators and the fault tests read it to see that a failed
// transfer gave its buffer and channel back.
import type { CuServer } from './cu-server.js';

export interface RdmaStatsReport {
  readonly server: ReturnType<CuServer['stats']>;
  readonly pool: ReturnType<CuServer['bufferPool']['stats']>;
  readonly transport: ReturnType<CuServer['rdmaServer']['stats']>;
}

export function rdmaStatsReport(cu: CuServer): RdmaStatsReport {
  return { server: cu.stats(), pool: cu.bufferPool.stats(), transport: cu.rdmaServer.stats() };
}

/** The report as an HTTP answer (bigint-free: every counter is a number). */
export function rdmaStatsResponse(report: RdmaStatsReport): Response {
  return new Response(JSON.stringify(report), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}
