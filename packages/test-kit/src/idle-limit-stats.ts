// What Gateway.limitStats() reads on a gateway that has served nothing yet: every counter of the
// listener's limits at zero, written out field by field so a test notices a field added or lost.

export const IDLE_LIMIT_STATS = {
  connections: 0,
  inFlight: 0,
  rejectedSlowDown: 0,
  bodyIdleTimeouts: 0,
  droppedConnections: 0,
  cutAtShutdown: 0,
} as const;
