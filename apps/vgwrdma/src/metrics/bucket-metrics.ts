// Per-bucket request and byte counters (--metrics-per-bucket): one series per bucket per counter,
// so they are off by default — a gateway with many buckets would multiply the series a Prometheus
// server keeps. Requests naming no bucket (ListBuckets, admin calls, probes) are not counted here.
import type { RequestObservation, RequestObserver } from '@vgwrdma/gateway';
import { Counter, type Registry } from 'prom-client';

export function bucketMetrics(registry: Registry): RequestObserver {
  const requests = new Counter({
    name: 'vgwrdma_bucket_requests_total',
    help: 'S3 requests answered, by bucket (--metrics-per-bucket)',
    labelNames: ['bucket'],
    registers: [registry],
  });
  const sent = new Counter({
    name: 'vgwrdma_bucket_sent_bytes_total',
    help: 'Response body bytes sent over HTTP, by bucket (--metrics-per-bucket)',
    labelNames: ['bucket'],
    registers: [registry],
  });
  const received = new Counter({
    name: 'vgwrdma_bucket_received_bytes_total',
    help: 'Request body bytes received over HTTP, by bucket (--metrics-per-bucket)',
    labelNames: ['bucket'],
    registers: [registry],
  });
  return (o: RequestObservation) => {
    if (o.bucket === '') return;
    requests.inc({ bucket: o.bucket });
    if (o.bytesSent > 0) sent.inc({ bucket: o.bucket }, o.bytesSent);
    if (o.bytesReceived > 0) received.inc({ bucket: o.bucket }, o.bytesReceived);
  };
}
