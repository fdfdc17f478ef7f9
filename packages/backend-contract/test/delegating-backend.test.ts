// DelegatingBackend: every Backend method reaches the inner backend with its arguments and `this`
// bound to the inner backend; a subclass's own method replaces the forwarder; shutdown forwards.
import { describe, expect, it } from 'vitest';
import type { Backend } from '../src/backend.js';
import { BACKEND_METHODS } from '../src/backend-methods.js';
import { DelegatingBackend } from '../src/delegating-backend.js';
import type { HeadBucketOutput } from '../src/types/bucket.js';
import type { RequestContext } from '../src/types/context.js';
import { UnsupportedBackend } from '../src/unsupported-backend.js';

const ctx: RequestContext = {
  account: { access: 'test', role: 'admin' },
  requestId: 'req-1',
  signal: new AbortController().signal,
};

type Call = { method: string; self: unknown; args: unknown[] };

/** An inner backend whose every method records its call and answers with its own name. */
function recordingBackend(calls: Call[]): Backend {
  const inner = new UnsupportedBackend();
  for (const method of BACKEND_METHODS) {
    Object.defineProperty(inner, method, {
      value(this: unknown, ...args: unknown[]) {
        calls.push({ method, self: this, args });
        return Promise.resolve(`answer of ${method}`);
      },
    });
  }
  return inner;
}

describe('DelegatingBackend', () => {
  it.each(BACKEND_METHODS)('%s forwards its arguments to the inner backend', async (method) => {
    const calls: Call[] = [];
    const inner = recordingBackend(calls);
    const outer = new DelegatingBackend(inner);
    const input = { marker: method };
    const fn = outer[method] as (...a: unknown[]) => Promise<unknown>;
    await expect(fn.call(outer, ctx, input)).resolves.toBe(`answer of ${method}`);
    expect(calls).toEqual([{ method, self: inner, args: [ctx, input] }]);
  });

  it('a subclass overrides one method and keeps forwarding the others', async () => {
    const calls: Call[] = [];
    class Decorator extends DelegatingBackend {
      override async headBucket(_ctx: RequestContext, _bucket: string): Promise<HeadBucketOutput> {
        return { region: 'decorated' };
      }
    }
    const d = new Decorator(recordingBackend(calls), 'decorator');
    expect(d.name).toBe('decorator');
    await expect(d.headBucket(ctx, 'b')).resolves.toEqual({ region: 'decorated' });
    await d.listBuckets(ctx, {});
    expect(calls.map((c) => c.method)).toEqual(['listBuckets']);
  });

  it('takes the inner name by default and forwards shutdown', async () => {
    let shutdowns = 0;
    const inner = new (class extends UnsupportedBackend {
      override readonly name = 'inner';
      override async shutdown(): Promise<void> {
        shutdowns++;
      }
    })();
    const outer = new DelegatingBackend(inner);
    expect(outer.name).toBe('inner');
    await outer.shutdown();
    expect(shutdowns).toBe(1);
  });
});
