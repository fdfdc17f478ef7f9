// The managed transfer's part queue on declines: a busy decline (x-amz-rdma-decline-reason
// pool-busy / no-channel / agent-busy) is retried with backoff, a permanent one (size-over-limit,
// anonymous, shutting-down, transport-unreachable) is not retried by RDMA: it fails the part at
// once, or goes by HTTP at once where fallback 'http' allows it. A decline without the header (a
// gateway older than it) is retried as before. No gateway: the attempt function stands for one.
import { describe, expect, it } from 'vitest';
import { CuObjError } from '../src/errors.js';
import type { PartAttempt } from '../src/part-io.js';
import { declineWorthRetrying, PartFailedError, type QueueSettings, runParts } from '../src/part-queue.js';
import type { Session } from '../src/session.js';
import type { SessionPool } from '../src/session-pool.js';
import type { PartSpan } from '../src/transfer-options.js';

const pool = { acquire: async () => ({}) as Session, release: () => undefined } as unknown as SessionPool;
const span: PartSpan = { number: 1, offset: 0, length: 10 };

function settings(fallback: 'none' | 'http'): QueueSettings {
  return {
    concurrency: 1,
    maxRetries: 3,
    declineRetries: 4,
    backoffMs: 0,
    fallback,
    signal: undefined,
    onProgress: undefined,
    totalBytes: 10,
  };
}

/** Declines by RDMA with `reason`; by HTTP succeeds. Records each try's `http`. */
function declining(reason: string | undefined) {
  const tries: boolean[] = [];
  const attempt = async (_s: Session, _span: PartSpan, http: boolean): Promise<PartAttempt> => {
    tries.push(http);
    if (http) return { kind: 'done', via: 'http', etag: '"e"', checksum: undefined, headers: {} };
    return { kind: 'declined', error: new CuObjError('VGW_ERR_CUOBJ_DECLINED', 'declined'), reason };
  };
  return { tries, attempt };
}

describe('declined parts', () => {
  it.each(['pool-busy', 'no-channel', 'agent-busy'])(
    'a busy decline (%s) is retried by RDMA',
    async (reason) => {
      const d = declining(reason);
      const err = await runParts([span], pool, settings('none'), d.attempt).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartFailedError);
      expect(d.tries).toEqual([false, false, false, false, false]); // 1 + declineRetries
      expect((err as PartFailedError).retries).toBe(4);
    },
  );

  it.each(['size-over-limit', 'anonymous', 'shutting-down', 'transport-unreachable'])(
    'a permanent decline (%s) fails the part without an RDMA retry',
    async (reason) => {
      const d = declining(reason);
      const err = await runParts([span], pool, settings('none'), d.attempt).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartFailedError);
      expect((err as PartFailedError).part).toBe(1);
      expect((err as PartFailedError).retries).toBe(0);
      expect(d.tries).toEqual([false]);
    },
  );

  it("a permanent decline goes by HTTP at once with fallback 'http'", async () => {
    const d = declining('size-over-limit');
    const out = await runParts([span], pool, settings('http'), d.attempt);
    expect(d.tries).toEqual([false, true]);
    expect(out.httpParts).toBe(1);
    expect(out.retries).toBe(0);
  });

  it("a busy decline goes by HTTP only after its retries, with fallback 'http'", async () => {
    const d = declining('pool-busy');
    const out = await runParts([span], pool, settings('http'), d.attempt);
    expect(d.tries).toEqual([false, false, false, false, false, true]);
    expect(out.httpParts).toBe(1);
  });

  it('a decline without a reason header is retried (a gateway older than the header)', async () => {
    const d = declining(undefined);
    await runParts([span], pool, settings('none'), d.attempt).catch(() => undefined);
    expect(d.tries).toHaveLength(5);
    expect(declineWorthRetrying(undefined)).toBe(true);
    expect(declineWorthRetrying('pool-busy')).toBe(true);
    expect(declineWorthRetrying('size-over-limit')).toBe(false);
  });
});
