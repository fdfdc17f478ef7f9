// Runs the parts of one managed transfer: at most `concurrency` in flight (each holding one pooled
// session), a failed part retried up to maxRetries times when the failure is transient (network,
// 5xx, timeout, a short or corrupt transfer), a declined part retried with backoff up to
// declineRetries times when the decline is a busy one (x-amz-rdma-decline-reason judged by
// rdma-protocol's isRetryableDecline; a gateway that names no reason is retried as before), and
// then, or at once for a permanent decline (size-over-limit, anonymous, shutting-down, ...), sent by
// HTTP where fallback 'http' allows it. The first part that
// fails for good stops the scheduling; parts in flight are always let finish (a gateway may still
// be reading or writing a session's memory until its answer comes, so a session is never reused
// before that), then the queue rejects with VGW_ERR_CUOBJ_PART_FAILED naming the part, or with
// VGW_ERR_CUOBJ_ABORTED when the signal fired. Progress is reported after each part, monotonic.

import { isRetryableDecline } from '@vgwrdma/rdma-protocol';
import { CuObjError } from './errors.js';
import type { PartAttempt } from './part-io.js';
import type { Session } from './session.js';
import type { SessionPool } from './session-pool.js';
import type { PartSpan } from './transfer-options.js';
import { isServiceError } from './transfer-result.js';
import type { TransferProgress } from './transfer-types.js';

export interface QueueSettings {
  readonly concurrency: number;
  readonly maxRetries: number;
  readonly declineRetries: number;
  readonly backoffMs: number;
  readonly fallback: 'none' | 'http';
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((p: TransferProgress) => void) | undefined;
  readonly totalBytes: number;
}

export type Attempt = (session: Session, span: PartSpan, http: boolean) => Promise<PartAttempt>;
export type DonePart = { readonly span: PartSpan } & Extract<PartAttempt, { kind: 'done' }>;

export interface QueueOutcome {
  /** In part order. */
  readonly parts: readonly DonePart[];
  readonly retries: number;
  readonly httpParts: number;
  readonly maxInFlight: number;
}

/** Transient failures worth another try of the same part (a part is idempotent). */
const RETRY_CODES: ReadonlySet<string> = new Set([
  'VGW_ERR_CUOBJ_BYTES_MISMATCH',
  'VGW_ERR_CUOBJ_CHECKSUM_MISMATCH',
  'VGW_ERR_CUOBJ_BODY_LENGTH',
]);
const RETRY_S3_CODES: ReadonlySet<string> = new Set([
  'RequestTimeout',
  'SlowDown',
  'InternalError',
  'ServiceUnavailable',
  'BadDigest',
]);
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

export function isRetryable(err: unknown): boolean {
  if (err instanceof CuObjError) {
    if (RETRY_CODES.has(err.code)) return true;
    if (err.code !== 'VGW_ERR_CUOBJ_GATEWAY_ERROR') return false;
    const g = err.gateway;
    return (g?.httpStatus ?? 0) >= 500 || RETRY_S3_CODES.has(g?.errorCode ?? '');
  }
  if (isServiceError(err)) {
    const e = err as { name?: string; $metadata: { httpStatusCode: number } };
    return e.$metadata.httpStatusCode >= 500 || RETRY_S3_CODES.has(e.name ?? '');
  }
  const code = (err as { code?: unknown } | undefined)?.code;
  const name = (err as { name?: unknown } | undefined)?.name;
  return (typeof code === 'string' && NETWORK_CODES.has(code)) || name === 'TimeoutError';
}

/**
 * Whether another RDMA try of a declined part can help: a busy decline (pool-busy, no-channel,
 * agent-busy) clears; a permanent one (the request is over the gateway's limit, anonymous, the
 * gateway shutting down, no transport) answers the same every time. No reason header: a gateway
 * older than the header, whose declines were busy ones, so it is retried.
 */
export function declineWorthRetrying(reason: string | undefined): boolean {
  return reason === undefined || isRetryableDecline(reason);
}

export function abortedError(signal: AbortSignal): CuObjError {
  return new CuObjError('VGW_ERR_CUOBJ_ABORTED', 'the transfer was aborted', { cause: signal.reason });
}

function why(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Waits `ms`, or less when the signal fires. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Exponential backoff with full jitter, capped at 2 s. */
function backoff(base: number, n: number): number {
  return Math.min(2000, base * 2 ** (n - 1)) * (0.5 + Math.random() / 2);
}

export async function runParts(
  spans: readonly PartSpan[],
  pool: SessionPool,
  q: QueueSettings,
  attempt: Attempt,
): Promise<QueueOutcome> {
  const done: DonePart[] = new Array(spans.length);
  let next = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let retries = 0;
  let httpParts = 0;
  let bytesDone = 0;
  let partsDone = 0;
  let failure: unknown;
  const stopped = () => failure !== undefined || q.signal?.aborted === true;

  const runOne = async (span: PartSpan): Promise<void> => {
    let failures = 0;
    let declines = 0;
    let http = false;
    for (;;) {
      if (q.signal?.aborted) throw abortedError(q.signal);
      const session = await pool.acquire();
      let r: PartAttempt | undefined;
      let err: unknown;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        r = await attempt(session, span, http);
      } catch (e) {
        err = e;
      } finally {
        inFlight--;
        pool.release(session);
      }
      if (r === undefined) {
        if (!isRetryable(err) || failures >= q.maxRetries) throw partFailed(span, err, failures);
        failures++;
        retries++;
        await sleep(backoff(q.backoffMs, failures), q.signal);
        continue;
      }
      if (r.kind === 'declined') {
        if (declines < q.declineRetries && declineWorthRetrying(r.reason)) {
          declines++;
          retries++;
          await sleep(backoff(q.backoffMs, declines), q.signal);
        } else if (q.fallback === 'http' && !http) {
          http = true;
        } else {
          throw partFailed(span, r.error, failures + declines);
        }
        continue;
      }
      if (r.via === 'http') httpParts++;
      done[span.number - 1] = { ...r, span };
      bytesDone += span.length;
      partsDone++;
      q.onProgress?.({ bytesDone, totalBytes: q.totalBytes, partsDone, totalParts: spans.length });
      return;
    }
  };

  const worker = async (): Promise<void> => {
    while (!stopped() && next < spans.length) {
      const span = spans[next++] as PartSpan;
      try {
        await runOne(span);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(q.concurrency, spans.length) }, worker));
  if (failure !== undefined) throw failure;
  if (q.signal?.aborted) throw abortedError(q.signal);
  return { parts: done, retries, httpParts, maxInFlight };
}

function partFailed(span: PartSpan, cause: unknown, retries: number): CuObjError {
  if (cause instanceof CuObjError && cause.code === 'VGW_ERR_CUOBJ_ABORTED') return cause;
  return new PartFailedError(span.number, retries, cause);
}

/** VGW_ERR_CUOBJ_PART_FAILED with the part's number. */
export class PartFailedError extends CuObjError {
  constructor(
    readonly part: number,
    readonly retries: number,
    cause: unknown,
  ) {
    super(
      'VGW_ERR_CUOBJ_PART_FAILED',
      `part ${part} failed${retries ? ` after ${retries} retr${retries === 1 ? 'y' : 'ies'}` : ''}: ${why(cause)}`,
      { cause },
    );
  }
}
