// UnsupportedBackend: every Backend method answers NotImplemented, and a subclass's own method
// replaces the default.
import { describe, expect, it } from 'vitest';
import type { Backend } from '../src/backend.js';
import { BACKEND_METHODS } from '../src/backend-methods.js';
import { S3Error } from '../src/errors/s3-error.js';
import type { HeadBucketOutput } from '../src/types/bucket.js';
import type { RequestContext } from '../src/types/context.js';
import { UnsupportedBackend } from '../src/unsupported-backend.js';

const ctx: RequestContext = {
  account: { access: 'test', role: 'admin' },
  requestId: 'req-1',
  signal: new AbortController().signal,
};

/** Calls a Backend method by name with placeholder arguments (never inspected by the default). */
function call(backend: Backend, method: (typeof BACKEND_METHODS)[number]): Promise<unknown> {
  const fn = backend[method] as (...args: unknown[]) => Promise<unknown>;
  return fn.call(backend, ctx, {}, {}, false);
}

describe('UnsupportedBackend', () => {
  it('lists every Backend method once', () => {
    expect(new Set(BACKEND_METHODS).size).toBe(BACKEND_METHODS.length);
    expect(BACKEND_METHODS.length).toBeGreaterThanOrEqual(50);
  });

  it.each(BACKEND_METHODS)('%s rejects with NotImplemented (501)', async (method) => {
    const err = await call(new UnsupportedBackend(), method).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(S3Error);
    expect((err as S3Error).code).toBe('NotImplemented');
    expect((err as S3Error).status).toBe(501);
  });

  it('has a name and an idempotent shutdown', async () => {
    const b = new UnsupportedBackend();
    expect(b.name).toBe('unsupported');
    await b.shutdown();
    await b.shutdown();
  });

  it('a subclass override wins; the methods it leaves alone still answer NotImplemented', async () => {
    class OnlyHead extends UnsupportedBackend {
      override readonly name = 'only-head';
      calls: string[] = [];
      override async headBucket(_ctx: RequestContext, bucket: string): Promise<HeadBucketOutput> {
        this.calls.push(bucket);
        return { region: 'local' };
      }
    }
    const b = new OnlyHead();
    await expect(b.headBucket(ctx, 'bkt')).resolves.toEqual({ region: 'local' });
    expect(b.calls).toEqual(['bkt']);
    await expect(b.deleteBucket(ctx, 'bkt')).rejects.toMatchObject({ code: 'NotImplemented' });
    // The base prototype is untouched by the subclass.
    await expect(new UnsupportedBackend().headBucket(ctx, 'bkt')).rejects.toMatchObject({
      code: 'NotImplemented',
    });
  });

  it('a decorator can wrap another backend and override one method', async () => {
    class Inner extends UnsupportedBackend {
      override async headBucket(): Promise<HeadBucketOutput> {
        return { region: 'inner' };
      }
    }
    class Decorator extends UnsupportedBackend {
      constructor(private readonly inner: Backend) {
        super();
      }
      override async headBucket(c: RequestContext, bucket: string): Promise<HeadBucketOutput> {
        const out = await this.inner.headBucket(c, bucket);
        return { region: `decorated(${out.region})` };
      }
    }
    await expect(new Decorator(new Inner()).headBucket(ctx, 'b')).resolves.toEqual({
      region: 'decorated(inner)',
    });
  });
});
