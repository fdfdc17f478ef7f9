// The app's Prometheus metrics: one registry with the S3, RDMA, limit and process metrics, fed by
// the gateway's observer hook and the RDMA plugin's transfer events, served on its own listener.
import type { RdmaPlugin } from '@vgwrdma/cu-backend';
import type { DeliveryStats, LimitStats, RequestObserver } from '@vgwrdma/gateway';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { bucketMetrics } from './bucket-metrics.js';
import { buildInfo } from './build-info.js';
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

export interface AppMetricsOptions {
  /** --metrics-per-bucket: request and byte counters with a `bucket` label. */
  readonly perBucket?: boolean;
}

export function createAppMetrics(options: AppMetricsOptions = {}): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  buildInfo(registry);
  const s3 = s3Metrics(registry);
  const buckets = options.perBucket ? bucketMetrics(registry) : undefined;
  return {
    registry,
    observer: buckets
      ? (o) => {
          s3(o);
          buckets(o);
        }
      : s3,
    attach(limitStats, rdma, events) {
      limitMetrics(registry, limitStats);
      if (rdma) rdmaMetrics(registry, rdma);
      if (events) eventMetrics(registry, events);
    },
  };
}
