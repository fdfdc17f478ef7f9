// What the web console's dashboard shows, kept in process while --webui is on: request and HTTP
// byte counters and recent PUT/GET latencies from the gateway's per-request observations, RDMA
// bytes by client (agent host) from the same observations, and — read when asked — the RDMA
// plugin's own counters (bytes, declines by reason) and buffer pool. Counters only grow; the
// console turns two snapshots into rates.
import { type RdmaPlugin, rdmaObservation } from '@vgwrdma/cu-backend';
import type { LimitStats, RequestObservation, RequestObserver } from '@vgwrdma/gateway';

/** Latencies kept per operation for the percentiles (the most recent ones). */
const LATENCY_WINDOW = 1024;
/** Agents listed at most (the busiest by bytes); the rest are summed into one row. */
const MAX_AGENTS = 32;

const LATENCY_OPERATIONS = { PutObject: 'put', UploadPart: 'put', GetObject: 'get' } as const;

interface Ring {
  readonly values: Float64Array;
  next: number;
  count: number;
}

const ring = (): Ring => ({ values: new Float64Array(LATENCY_WINDOW), next: 0, count: 0 });

function push(r: Ring, value: number): void {
  r.values[r.next] = value;
  r.next = (r.next + 1) % LATENCY_WINDOW;
  r.count = Math.min(LATENCY_WINDOW, r.count + 1);
}

export interface LatencySummary {
  readonly samples: number;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

function percentiles(r: Ring): LatencySummary {
  const sorted = Array.from(r.values.subarray(0, r.count)).sort((a, b) => a - b);
  const at = (q: number): number | null =>
    sorted.length === 0 ? null : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null);
  return { samples: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

export interface AgentRow {
  readonly agent: string;
  readonly transfers: number;
  readonly bytes: number;
}

export interface ConsoleStatsSnapshot {
  /** Epoch ms of this snapshot. */
  readonly at: number;
  readonly startedAt: number;
  readonly requests: { readonly total: number; readonly errors: number; readonly inFlight: number };
  readonly http: { readonly bytesIn: number; readonly bytesOut: number };
  readonly latencyMs: { readonly put: LatencySummary; readonly get: LatencySummary };
  /** Absent without --rdma-ip. */
  readonly rdma?: {
    readonly transport: string;
    /** Payload bytes moved by RDMA: read from clients (PUT) and written to them (GET). */
    readonly bytesIn: number;
    readonly bytesOut: number;
    readonly puts: number;
    readonly gets: number;
    readonly failures: number;
    readonly declines: Readonly<Record<string, number>>;
    readonly pool: {
      readonly count: number;
      readonly bufferSize: number;
      readonly inUse: number;
      readonly free: number;
      readonly waiting: number;
    };
    readonly agents: readonly AgentRow[];
  };
}

export interface ConsoleStats {
  /** Pass to createGateway({ observers }). */
  readonly observer: RequestObserver;
  /** Once the gateway and plugin exist. */
  attach(limitStats: () => LimitStats, rdma: RdmaPlugin | undefined, transport: string): void;
  snapshot(): ConsoleStatsSnapshot;
}

export function createConsoleStats(now: () => number = Date.now): ConsoleStats {
  const startedAt = now();
  const counts = { total: 0, errors: 0, bytesIn: 0, bytesOut: 0 };
  const latency = { put: ring(), get: ring() };
  const agents = new Map<string, { transfers: number; bytes: number }>();
  let limits: (() => LimitStats) | undefined;
  let plugin: { rdma: RdmaPlugin; transport: string } | undefined;

  const observer: RequestObserver = (o: RequestObservation) => {
    counts.total++;
    if (o.status >= 400) counts.errors++;
    counts.bytesIn += o.bytesReceived;
    counts.bytesOut += o.bytesSent;
    const which = LATENCY_OPERATIONS[o.operation as keyof typeof LATENCY_OPERATIONS];
    if (which !== undefined && o.status < 400) push(latency[which], o.totalMs);
    const rdma = rdmaObservation(o);
    if (rdma !== undefined && rdma.bytes > 0) {
      const key = o.remoteAddress ?? 'unknown';
      const row = agents.get(key) ?? { transfers: 0, bytes: 0 };
      row.transfers++;
      row.bytes += rdma.bytes;
      agents.set(key, row);
    }
  };

  const agentRows = (): AgentRow[] => {
    const rows = [...agents].map(([agent, r]) => ({ agent, ...r })).sort((a, b) => b.bytes - a.bytes);
    if (rows.length <= MAX_AGENTS) return rows;
    const rest = rows.slice(MAX_AGENTS - 1);
    return [
      ...rows.slice(0, MAX_AGENTS - 1),
      {
        agent: `${rest.length} others`,
        transfers: rest.reduce((n, r) => n + r.transfers, 0),
        bytes: rest.reduce((n, r) => n + r.bytes, 0),
      },
    ];
  };

  const rdmaPart = (): ConsoleStatsSnapshot['rdma'] => {
    if (plugin === undefined) return undefined;
    const s = plugin.rdma.stats();
    return {
      transport: plugin.transport,
      bytesIn: s.server.bytesRead,
      bytesOut: s.server.bytesWritten,
      puts: s.server.rdmaPuts,
      gets: s.server.rdmaGets,
      failures: s.server.failures,
      declines: { ...s.server.declines },
      pool: {
        count: s.pool.count,
        bufferSize: s.pool.bufferSize,
        inUse: s.pool.inUse,
        free: s.pool.free,
        waiting: s.pool.waiting,
      },
      agents: agentRows(),
    };
  };

  return {
    observer,
    attach(limitStats, rdma, transport) {
      limits = limitStats;
      if (rdma !== undefined) plugin = { rdma, transport };
    },
    snapshot() {
      const rdma = rdmaPart();
      return {
        at: now(),
        startedAt,
        requests: { total: counts.total, errors: counts.errors, inFlight: limits?.().inFlight ?? 0 },
        http: { bytesIn: counts.bytesIn, bytesOut: counts.bytesOut },
        latencyMs: { put: percentiles(latency.put), get: percentiles(latency.get) },
        ...(rdma === undefined ? {} : { rdma }),
      };
    },
  };
}
