// The HTTP side of the Prometheus metrics: requests by S3 operation and status class, latency and
// bytes per operation, from the gateway's per-request observation. The labelled children of each
// operation are looked up once and kept, so an observation costs a Map lookup and five updates.
import type { RequestObservation, RequestObserver } from '@vgwrdma/gateway';
import { Counter, Histogram, type Registry } from 'prom-client';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** Seconds; from a 4 KiB PUT on loopback (~1 ms) to multi-GiB transfers. */
const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

interface OperationChildren {
  readonly requests: readonly Counter.Internal[];
  readonly latency: Histogram.Internal<string>;
  readonly sent: Counter.Internal;
  readonly received: Counter.Internal;
}

export function s3Metrics(registry: Registry): RequestObserver {
  const requests = new Counter({
    name: 'vgwrdma_s3_requests_total',
    help: 'S3 requests answered, by operation and status class',
    labelNames: ['operation', 'status_class'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'vgwrdma_s3_request_duration_seconds',
    help: 'Time from request arrival to the end of its response, by operation',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const sent = new Counter({
    name: 'vgwrdma_s3_sent_bytes_total',
    help: 'Response body bytes sent over HTTP, by operation',
    labelNames: ['operation'],
    registers: [registry],
  });
  const received = new Counter({
    name: 'vgwrdma_s3_received_bytes_total',
    help: 'Request body bytes received over HTTP, by operation',
    labelNames: ['operation'],
    registers: [registry],
  });
  const byOperation = new Map<string, OperationChildren>();
  const childrenOf = (operation: string): OperationChildren => {
    let ch = byOperation.get(operation);
    if (ch === undefined) {
      ch = {
        requests: STATUS_CLASSES.map((cls) => requests.labels(operation, cls)),
        latency: latency.labels(operation),
        sent: sent.labels(operation),
        received: received.labels(operation),
      };
      byOperation.set(operation, ch);
    }
    return ch;
  };
  return (o: RequestObservation) => {
    const ch = childrenOf(o.operation);
    const cls = Math.min(4, Math.max(0, Math.floor(o.status / 100) - 1));
    ch.requests[cls]?.inc();
    ch.latency.observe(o.totalMs / 1000);
    if (o.bytesSent > 0) ch.sent.inc(o.bytesSent);
    if (o.bytesReceived > 0) ch.received.inc(o.bytesReceived);
  };
}
