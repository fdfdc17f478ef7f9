// The RDMA side of the Prometheus metrics: transfers by direction and outcome (with the decline
// reason), bytes moved and transfer latency from CuServer's per-transfer events; GETs by lanes
// used; and, read at scrape time, the pool's buffers in use / free / peak / waiting and the channels
// in use.
import type { RdmaPlugin, RdmaTransferEvent } from '@vgwrdma/cu-backend';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

const TRANSFER_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function rdmaMetrics(registry: Registry, rdma: RdmaPlugin): () => void {
  const transfers = new Counter({
    name: 'vgwrdma_rdma_transfers_total',
    help: "RDMA transfers by direction (get: WRITE to the client, put: READ from it), outcome (done, declined, failed) and decline reason ('' unless declined)",
    labelNames: ['direction', 'outcome', 'reason'],
    registers: [registry],
  });
  const bytes = new Counter({
    name: 'vgwrdma_rdma_bytes_total',
    help: 'Payload bytes moved by RDMA, by direction',
    labelNames: ['direction'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'vgwrdma_rdma_transfer_duration_seconds',
    help: 'Time of a completed RDMA transfer (admission, buffer wait, data movement), by direction',
    labelNames: ['direction'],
    buckets: TRANSFER_BUCKETS,
    registers: [registry],
  });
  const lanes = new Counter({
    name: 'vgwrdma_rdma_get_lanes_total',
    help: 'Completed RDMA GETs by the number of channels (lanes) they used',
    labelNames: ['lanes'],
    registers: [registry],
  });
  new Gauge({
    name: 'vgwrdma_rdma_pool_buffers',
    help: 'Registered pool buffers by state (in_use, free)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const s = rdma.pool.stats();
      this.set({ state: 'in_use' }, s.inUse);
      this.set({ state: 'free' }, s.free);
    },
  });
  new Gauge({
    name: 'vgwrdma_rdma_pool_buffers_peak',
    help: 'The most pool buffers in use at once since start (transfers that overlapped, e.g. the parts of a managed upload)',
    registers: [registry],
    collect() {
      this.set(rdma.pool.stats().peakInUse);
    },
  });
  new Gauge({
    name: 'vgwrdma_rdma_pool_waiting',
    help: 'Requests waiting for a pool buffer now',
    registers: [registry],
    collect() {
      this.set(rdma.pool.stats().waiting);
    },
  });
  new Gauge({
    name: 'vgwrdma_rdma_channels_in_use',
    help: 'RDMA channels held by transfers now',
    registers: [registry],
    collect() {
      this.set(rdma.stats().server.channelsInUse);
    },
  });
  return rdma.onTransfer((e: RdmaTransferEvent) => {
    transfers.inc({ direction: e.direction, outcome: e.outcome, reason: e.reason ?? '' });
    if (e.outcome !== 'done') return;
    bytes.inc({ direction: e.direction }, e.bytes);
    duration.observe({ direction: e.direction }, e.ms / 1000);
    if (e.direction === 'get') lanes.inc({ lanes: String(e.lanes) });
  });
}
