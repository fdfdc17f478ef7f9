// The listener's limit counters, one set per gateway: what --max-connections, --max-requests and
// the body idle timeout are doing right now. `Gateway.limitStats()` hands a snapshot to whoever
// exports metrics (the app's Prometheus listener); the gateway itself only counts.

/** A snapshot of the limit counters (gauges: connections, inFlight; the rest only grow). */
export interface LimitStats {
  /** Client connections open now, over every server listen() started (TLS handshakes included). */
  readonly connections: number;
  /** S3 requests being served now (the health and ready paths are not counted). */
  readonly inFlight: number;
  /** Requests answered 503 SlowDown because `maxRequests` were in flight. */
  readonly rejectedSlowDown: number;
  /** Request bodies cut with 400 RequestTimeout after sending nothing for the body idle timeout. */
  readonly bodyIdleTimeouts: number;
  /** Connections closed unanswered at accept because `maxConnections` were open. */
  readonly droppedConnections: number;
  /** Requests still running when the shutdown deadline (`shutdownTimeoutMs`) came, and cut. */
  readonly cutAtShutdown: number;
}

/** The mutable counters behind LimitStats; the middleware, router and listener update them. */
export class LimitCounters {
  connections = 0;
  inFlight = 0;
  rejectedSlowDown = 0;
  bodyIdleTimeouts = 0;
  droppedConnections = 0;
  cutAtShutdown = 0;

  snapshot(): LimitStats {
    return {
      connections: this.connections,
      inFlight: this.inFlight,
      rejectedSlowDown: this.rejectedSlowDown,
      bodyIdleTimeouts: this.bodyIdleTimeouts,
      droppedConnections: this.droppedConnections,
      cutAtShutdown: this.cutAtShutdown,
    };
  }
}
