// DeliveryQueue with a scripted send function: retries with backoff until a send succeeds, gives
// up after maxAttempts, drops the oldest waiting message when full (counted, logged), and push()
// returns at once even while every send hangs.
import { describe, expect, it } from 'vitest';
import { DeliveryQueue, type Send } from '../../src/events/delivery-queue.js';
import type { Logger } from '../../src/logger.js';

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const none = () => {};
  return { info: none, debug: none, error: none, warn: (_o, msg) => warnings.push(msg ?? ''), warnings };
}

describe('DeliveryQueue', () => {
  it('retries a failing send until it succeeds', async () => {
    const seen: string[] = [];
    let failures = 2;
    const send: Send = async (body) => {
      seen.push(body);
      if (failures-- > 0) throw new Error('receiver down');
    };
    const q = new DeliveryQueue(send, recordingLogger(), { backoffMs: 5 });
    q.push('event-1');
    await q.drained();
    expect(seen).toEqual(['event-1', 'event-1', 'event-1']);
    expect(q.stats()).toMatchObject({ delivered: 1, retried: 2, failed: 0, dropped: 0 });
  });

  it('gives up after maxAttempts and logs it', async () => {
    let calls = 0;
    const log = recordingLogger();
    const q = new DeliveryQueue(
      async () => {
        calls++;
        throw new Error('no');
      },
      log,
      { backoffMs: 1, maxAttempts: 3 },
    );
    q.push('lost');
    await q.drained();
    expect(calls).toBe(3);
    expect(q.stats()).toMatchObject({ delivered: 0, failed: 1, retried: 2 });
    expect(log.warnings).toContain('event notification not delivered: giving up');
  });

  it('drops the oldest waiting message when full, without blocking push', async () => {
    const release: (() => void)[] = [];
    const delivered: string[] = [];
    const send: Send = (body) =>
      new Promise<void>((resolve) => {
        release.push(() => {
          delivered.push(body);
          resolve();
        });
      });
    const log = recordingLogger();
    const q = new DeliveryQueue(send, log, { capacity: 2, concurrency: 1 });
    for (const m of ['m1', 'm2', 'm3', 'm4', 'm5']) q.push(m); // m1 in flight; m2, m3 pushed out
    expect(q.stats()).toMatchObject({ queued: 2, dropped: 2 });
    expect(log.warnings).toEqual(['event queue full: dropped the oldest event notification']);
    while (delivered.length < 3) {
      await new Promise((r) => setImmediate(r));
      release.shift()?.();
    }
    await q.drained();
    expect(delivered).toEqual(['m1', 'm4', 'm5']);
  });

  it('close() abandons waiting messages and pending retries', async () => {
    let calls = 0;
    const q = new DeliveryQueue(
      async () => {
        calls++;
        throw new Error('down');
      },
      recordingLogger(),
      { backoffMs: 60_000, concurrency: 1 },
    );
    q.push('a');
    q.push('b');
    await new Promise((r) => setImmediate(r));
    q.close();
    await q.drained();
    expect(calls).toBe(1);
    q.push('after close');
    expect(q.stats().queued).toBe(0);
  });
});
