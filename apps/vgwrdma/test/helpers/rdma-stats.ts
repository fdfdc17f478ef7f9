// A gateway's RDMA counters as the admin operation PATCH /rdma-stats reports them (CuServer's
// transfers, declines and in-use gauges, and the buffer pool): what the fault and scale-out tests
// read to see that a state settled — buffers held, or given back.
import { adminRequest, ROOT_CREDENTIALS } from '@vgwrdma/test-kit';

export interface RdmaStats {
  server: {
    buffersInUse: number;
    channelsInUse: number;
    rdmaPuts: number;
    rdmaGets: number;
    failures: number;
    timeouts: number;
    declines: Record<string, number>;
  };
  pool: { count: number; free: number; inUse: number; waiting: number };
}

/** PATCH /rdma-stats of one gateway (any process with its URL). */
export async function rdmaStats(gw: { readonly url: string }): Promise<RdmaStats> {
  const r = await adminRequest(gw.url, ROOT_CREDENTIALS, 'rdma-stats');
  if (r.status !== 200) throw new Error(`rdma-stats of ${gw.url}: ${r.status} ${r.text}`);
  return JSON.parse(r.text) as RdmaStats;
}
