// installUpstreamOps: ops-module functions become the backend's methods, called with the
// upstream; the class's own methods win; unserved methods stay NotImplemented; two modules
// serving one method is refused; a function with the wrong signature does not compile.
import { describe, expect, it } from 'vitest';
import { S3Error } from '../src/errors/s3-error.js';
import type { ListBucketsInput, RequestContext } from '../src/index.js';
import { UnsupportedBackend } from '../src/unsupported-backend.js';
import { installUpstreamOps } from '../src/upstream-ops.js';

interface Up {
  readonly tag: string;
}

const ctx = {} as RequestContext;

const bucketOps = {
  async listBuckets(up: Up, _ctx: RequestContext, input: ListBucketsInput) {
    return { buckets: [{ name: `${up.tag}:${input.prefix ?? ''}`, creationDate: new Date(0) }] };
  },
  async headBucket(up: Up, _ctx: RequestContext, bucket: string) {
    return { region: `${up.tag}/${bucket}` };
  },
  /** Not a Backend method: ignored. */
  helper: () => 'not an op',
};

class TestBackend extends UnsupportedBackend {
  constructor(private readonly up: Up) {
    super();
  }
  override async headBucket(_ctx: RequestContext, bucket: string) {
    return { region: `own method for ${bucket}` };
  }
  static {
    installUpstreamOps(TestBackend, (b) => b.up, [bucketOps]);
  }
}

describe('installUpstreamOps', () => {
  it("calls the ops function with the instance's upstream and the method's arguments", async () => {
    const a = new TestBackend({ tag: 'a' });
    const b = new TestBackend({ tag: 'b' });
    const out = await a.listBuckets(ctx, { prefix: 'p' });
    expect(out.buckets.map((x) => x.name)).toEqual(['a:p']);
    expect((await b.listBuckets(ctx, {})).buckets.map((x) => x.name)).toEqual(['b:']);
  });

  it('keeps the methods the class defines itself', async () => {
    expect(await new TestBackend({ tag: 'a' }).headBucket(ctx, 'bk')).toEqual({
      region: 'own method for bk',
    });
  });

  it('leaves unserved methods NotImplemented and ignores exports that are no Backend method', async () => {
    const t = new TestBackend({ tag: 'a' });
    await expect(t.deleteBucket(ctx, 'x')).rejects.toBeInstanceOf(S3Error);
    expect('helper' in t).toBe(false);
  });

  it('refuses two modules serving the same method', () => {
    class Twice extends UnsupportedBackend {
      readonly up: Up = { tag: 't' };
    }
    expect(() =>
      installUpstreamOps(Twice, (b) => b.up, [bucketOps, { listBuckets: bucketOps.listBuckets }]),
    ).toThrow(/two ops modules serve listBuckets/);
  });

  it('checks each op against its Backend method at compile time', () => {
    class Typed extends UnsupportedBackend {
      readonly up: Up = { tag: 't' };
    }
    const wrong = {
      headBucket: async (_up: Up, _ctx: RequestContext, bucket: number) => ({ region: `${bucket}` }),
    };
    // @ts-expect-error headBucket takes the bucket as a string
    installUpstreamOps(Typed, (b) => b.up, [wrong]);
    expect(typeof Typed.prototype.headBucket).toBe('function');
  });
});
