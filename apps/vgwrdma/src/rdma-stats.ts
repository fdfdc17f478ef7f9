// `PATCH /rdma-stats` (admin accounts only, like versitygw's user API): the RDMA data path's
// counters as JSON — CuServer's transfers, declines and in-use gauges, the buffer pool, and the
// transport's own counters. Operators and the fault tests read it to see that a failed transfer
// gave its buffer and channel back.
import { CuServer } from '@vgwrdma/cu-backend';
import type { Handler } from '@vgwrdma/gateway';
import type { Backend } from '@vgwrdma/s3-backend';

export interface RdmaStatsReport {
  readonly server: ReturnType<CuServer['stats']>;
  readonly pool: ReturnType<CuServer['bufferPool']['stats']>;
  readonly transport: ReturnType<CuServer['rdmaServer']['stats']>;
}

export function rdmaStatsReport(cu: CuServer): RdmaStatsReport {
  return { server: cu.stats(), pool: cu.bufferPool.stats(), transport: cu.rdmaServer.stats() };
}

/** The admin handlers to add for `backend`: `rdma-stats` when it is a CuServer, none otherwise. */
export function rdmaAdminHandlers(backend: Backend): Readonly<Record<string, Handler>> {
  if (!(backend instanceof CuServer)) return {};
  const handler: Handler = async () =>
    new Response(JSON.stringify(rdmaStatsReport(backend)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  return { 'rdma-stats': handler };
}
