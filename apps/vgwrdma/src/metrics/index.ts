// The app's Prometheus metrics: one registry with the S3, RDMA, limit and process metrics, fed by
// the gateway's observer hook and the RDMA plugin's transfer events, served on its own listener.
import type { RdmaPlugin } from '@vgwrdma/cu-backend';
import type { DeliveryStats, LimitStats, RequestObserver } from '@vgwrdma/gateway';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { eventMetrics } from './event-metrics.js';
import { limitMetrics } from './limit-metrics.js';
import { rdmaMetrics } from './rdma-metrics.js';
import { s3Metrics } from './s3-metrics.js';

export { type MetricsServer, startMetricsServer } from './metrics-server.js';

export interface AppMetrics {
  readonly registry: Registry;
  /** Pass to createGateway({ observers }). */
  readonly observer: RequestObserver;
  /**
   * Once the gateway exists: its limit counters, (with RDMA) the plugin's transfers and (with
   * event notifications) the delivery counters.
   */
  attach(limitStats: () => LimitStats, rdma: RdmaPlugin | undefined, events?: () => DeliveryStats): void;
}

export function createAppMetrics(): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    observer: s3Metrics(registry),
    attach(limitStats, rdma, events) {
      limitMetrics(registry, limitStats);
      if (rdma) rdmaMetrics(registry, rdma);
      if (events) eventMetrics(registry, events);
    },
  };
}
