// The limits as Prometheus metrics, read from Gateway.limitStats() at scrape time: open
// connections and requests in flight (gauges), SlowDown refusals, body idle timeouts and connections dropped at accept (counters).
import type { LimitStats } from '@vgwrdma/gateway';
import { Counter, Gauge, type Registry } from 'prom-client';

export function limitMetrics(registry: Registry, stats: () => LimitStats): void {
  new Gauge({
    name: 'vgwrdma_s3_requests_in_flight',
    help: 'S3 requests being served now',
    registers: [registry],
    collect() {
      this.set(stats().inFlight);
    },
  });
  new Gauge({
    name: 'vgwrdma_connections_open',
    help: 'Open client connections on the S3 listener',
    registers: [registry],
    collect() {
      this.set(stats().connections);
    },
  });
  monotonic(
    registry,
    'vgwrdma_slowdown_rejections_total',
    'Requests refused with 503 SlowDown by --max-requests',
    () => stats().rejectedSlowDown,
  );
  monotonic(
    registry,
    'vgwrdma_body_idle_timeouts_total',
    'Request bodies cut by the body idle timeout',
    () => stats().bodyIdleTimeouts,
  );
  monotonic(
    registry,
    'vgwrdma_connections_dropped_total',
    'Connections closed at accept by --max-connections',
    () => stats().droppedConnections,
  );
  monotonic(
    registry,
    'vgwrdma_shutdown_requests_cut_total',
    'Requests still running when the --shutdown-timeout drain ended, and cut',
    () => stats().cutAtShutdown,
  );
}

/** A counter whose value is owned elsewhere: set to the source's count at each scrape. */
function monotonic(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}
