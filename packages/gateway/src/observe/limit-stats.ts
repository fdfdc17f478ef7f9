// The limits' counters as one value (Gateway.limitStats()): open connections, S3 requests in
// flight, requests refused with 503 SlowDown by --max-requests, request bodies cut by the body idle
// timeout. The metrics listener exports them; the counters are bumped where each event happens.
export interface LimitStats {
  readonly connections: number;
  readonly inFlight: number;
  readonly rejectedSlowDown: number;
  readonly bodyIdleTimeouts: number;
}

/** The mutable side, shared by the server, the observe middleware and the error handler. */
export class LimitCounters {
  connections = 0;
  inFlight = 0;
  rejectedSlowDown = 0;
  bodyIdleTimeouts = 0;

  snapshot(): LimitStats {
    return {
      connections: this.connections,
      inFlight: this.inFlight,
      rejectedSlowDown: this.rejectedSlowDown,
      bodyIdleTimeouts: this.bodyIdleTimeouts,
    };
  }
}
