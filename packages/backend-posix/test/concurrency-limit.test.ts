// limitConcurrency (versitygw's posix --concurrency): at most N operations in flight, the rest
// wait first come first served, a failure frees its slot, the inner backend's answers pass through.
import {
  type RequestContext as Ctx,
  type HeadBucketOutput,
  S3Error,
  UnsupportedBackend,
} from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { limitConcurrency } from '../src/index.js';

/** A backend whose headBucket calls stay open until the test settles them. */
class Gated extends UnsupportedBackend {
  readonly open: { bucket: string; settle: (fail?: boolean) => void }[] = [];
  running = 0;
  peak = 0;
  override headBucket(_: Ctx, bucket: string): Promise<HeadBucketOutput> {
    this.running++;
    this.peak = Math.max(this.peak, this.running);
    return new Promise((resolve, reject) => {
      this.open.push({
        bucket,
        settle: (fail) => {
          this.running--;
          if (fail) reject(new S3Error('NoSuchBucket'));
          else resolve({ region: bucket } as unknown as HeadBucketOutput);
        },
      });
    });
  }
}

const ctx = {} as Ctx;
const tick = () => new Promise((r) => setImmediate(r));

describe('limitConcurrency', () => {
  it('runs at most N at once, in arrival order; a failure frees its slot too', async () => {
    const inner = new Gated();
    const limited = limitConcurrency(inner, 2);
    const calls = ['a', 'b', 'c', 'd'].map((b) => limited.headBucket(ctx, b));
    const settled = Promise.allSettled(calls); // observed from the start: 'a' is meant to fail
    await tick();
    expect(inner.open.map((o) => o.bucket)).toEqual(['a', 'b']);
    inner.open[0]?.settle(true); // 'a' fails
    await tick();
    expect(inner.open.map((o) => o.bucket)).toEqual(['a', 'b', 'c']);
    inner.open[1]?.settle();
    await tick();
    expect(inner.open.map((o) => o.bucket)).toEqual(['a', 'b', 'c', 'd']);
    inner.open[2]?.settle();
    inner.open[3]?.settle();
    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseFulfilledResult<HeadBucketOutput>).value).toEqual({ region: 'b' });
    expect(inner.peak).toBe(2);
  });

  it('refuses a limit below 1; an operation the inner backend lacks still answers NotImplemented', async () => {
    expect(() => limitConcurrency(new Gated(), 0)).toThrow(/positive integer/);
    const limited = limitConcurrency(new Gated(), 1);
    await expect(limited.listBuckets(ctx, {})).rejects.toMatchObject({ code: 'NotImplemented' });
    expect(limited.name).toBe('unsupported');
  });
});
