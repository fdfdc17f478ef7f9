// Readiness, as Kubernetes' readinessProbe means it: may this gateway be sent traffic now? It asks
// the backend one cheap question (list at most one bucket, as an admin) and each plugin that can
// tell (the RDMA plugin: buffer pool allocated, RDMA server up). Liveness (the health path) asks
// nothing: a process whose backend is down is alive, and restarting it would not bring the
// backend back. Every check is bounded by a timeout, so a hung upstream reads as "not ready"
// rather than as a probe that never answers.
import type { Backend, RequestContext } from '@vgwrdma/backend-contract';
import type { GatewayPlugin } from '../plugins/index.js';

/** One check's outcome; `detail` says why it failed (or what it saw). */
export interface ReadinessCheck {
  readonly ok: boolean;
  readonly detail?: string;
}

export interface ReadinessReport {
  readonly ready: boolean;
  /** By check name: `backend`, then one per plugin that reports readiness. */
  readonly checks: Readonly<Record<string, ReadinessCheck>>;
}

/** How long one check may take before it counts as failed. */
export const READINESS_TIMEOUT_MS = 2_000;

const PROBE_ACCOUNT = { access: '', role: 'admin' } as const;

/**
 * The error's message, led by its code when the message does not already start with it, and
 * followed by its cause's (a backend's InternalError wraps the ECONNREFUSED that says why).
 */
function message(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const own =
    typeof code !== 'string' || error.message.startsWith(code) ? error.message : `${code}: ${error.message}`;
  return error.cause === undefined ? own : `${own} (${message(error.cause)})`;
}

async function bounded(
  run: (signal: AbortSignal) => Promise<ReadinessCheck>,
  ms: number,
): Promise<ReadinessCheck> {
  const ac = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ReadinessCheck>((resolve) => {
    timer = setTimeout(() => {
      ac.abort();
      resolve({ ok: false, detail: `no answer within ${ms} ms` });
    }, ms);
  });
  try {
    return await Promise.race([
      run(ac.signal).catch((error) => ({ ok: false, detail: message(error) })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The backend can be reached: it lists (at most) one bucket. */
function probeBackend(backend: Backend, signal: AbortSignal): Promise<ReadinessCheck> {
  const ctx: RequestContext = { account: PROBE_ACCOUNT, requestId: 'readiness-probe', signal };
  return backend.listBuckets(ctx, { maxBuckets: 1 }).then(() => ({ ok: true }));
}

/** Runs every check at once; ready when all pass. */
export async function checkReadiness(
  backend: Backend,
  plugins: readonly GatewayPlugin[],
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<ReadinessReport> {
  const named: [string, Promise<ReadinessCheck>][] = [
    ['backend', bounded((signal) => probeBackend(backend, signal), timeoutMs)],
    ...plugins.flatMap((p): [string, Promise<ReadinessCheck>][] => {
      const ready = p.readiness?.bind(p);
      return ready ? [[p.name, bounded(async () => ready(), timeoutMs)]] : [];
    }),
  ];
  const results = await Promise.all(named.map(([, check]) => check));
  const checks = Object.fromEntries(named.map(([name], i) => [name, results[i] as ReadinessCheck]));
  return { ready: results.every((r) => r.ok), checks };
}
