// The access-relevant state of each bucket (ACL, parsed policy, ownership, public access
// block, CORS rules), read
// from the backend once and kept in a bounded LRU. The router invalidates a bucket after every
// write to it, so this gateway's own Put*/Delete* take effect on the next request; a
// load that raced with any invalidation is used once but not stored (one global counter, so
// the bookkeeping stays bounded). Entries
// also expire after `ttlMs`, which is how writes by other gateways on the same tree show up.
import {
  type Backend,
  type BucketAcl,
  isS3Error,
  type ObjectOwnership,
  type PublicAccessBlock,
  type RequestContext,
} from '@vgwrdma/backend-contract';
import { type CorsRule, parseCorsRules } from '../cors/cors-config.js';
import { type BucketPolicy, parseBucketPolicy } from './policy/index.js';

export interface BucketState {
  readonly acl: BucketAcl;
  /** Absent when the bucket has no policy (or one that no longer parses). */
  readonly policy?: BucketPolicy;
  readonly ownership?: ObjectOwnership;
  /** Absent when the bucket has no public access block. */
  readonly publicAccessBlock?: PublicAccessBlock;
  /** Absent when the bucket has no CORS configuration. */
  readonly cors?: readonly CorsRule[];
}

/** Codes that mean "this bucket has none of that" rather than a failure. */
const ABSENT = new Set([
  'NoSuchBucketPolicy',
  'OwnershipControlsNotFoundError',
  'NoSuchCORSConfiguration',
  'NoSuchPublicAccessBlockConfiguration',
  'NotImplemented',
]);

async function optional<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (isS3Error(err) && ABSENT.has(err.code)) return undefined;
    throw err;
  }
}

function parsed<T>(text: string | undefined, parse: (t: string) => T): T | undefined {
  if (text === undefined) return undefined;
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

export async function loadBucketState(
  backend: Backend,
  ctx: RequestContext,
  bucket: string,
): Promise<BucketState> {
  const [acl, policy, ownership, cors, block] = await Promise.all([
    // A backend without ACL support (NotImplemented) leaves the bucket to admins and policies.
    optional(() => backend.getBucketAcl(ctx, bucket)),
    optional(() => backend.getBucketPolicy(ctx, bucket)),
    optional(() => backend.getBucketOwnershipControls(ctx, bucket)),
    optional(() => backend.getBucketCors(ctx, bucket)),
    optional(() => backend.getPublicAccessBlock(ctx, bucket)),
  ]);
  const p = parsed(policy, (t) => parseBucketPolicy(t, bucket));
  const c = parsed(cors, parseCorsRules);
  return {
    acl: acl ?? { Owner: '', Grantees: [] },
    ...(p ? { policy: p } : {}),
    ...(ownership ? { ownership } : {}),
    ...(block ? { publicAccessBlock: block } : {}),
    ...(c ? { cors: c } : {}),
  };
}

export interface BucketStateCacheOptions {
  /** Most buckets kept (least recently used dropped first). Default 1024. */
  maxEntries?: number;
  /** How long an entry is trusted; 0 = until invalidated. Default 5000 ms. */
  ttlMs?: number;
}

interface Entry {
  state: BucketState;
  loadedAt: number;
}

export class BucketStateCache {
  private readonly entries = new Map<string, Entry>();
  private invalidations = 0;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  /** Backend reads done (tests check that requests are served from the cache). */
  loads = 0;

  constructor(opts: BucketStateCacheOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 1024;
    this.ttlMs = opts.ttlMs ?? 5000;
  }

  async get(backend: Backend, ctx: RequestContext, bucket: string): Promise<BucketState> {
    const hit = this.entries.get(bucket);
    if (hit && (this.ttlMs === 0 || Date.now() - hit.loadedAt < this.ttlMs)) {
      // Re-insert to mark it most recently used.
      this.entries.delete(bucket);
      this.entries.set(bucket, hit);
      return hit.state;
    }
    const before = this.invalidations;
    this.loads++;
    const state = await loadBucketState(backend, ctx, bucket);
    if (this.invalidations === before) this.store(bucket, state);
    return state;
  }

  /** Forget `bucket`: its next request reads the backend again. */
  invalidate(bucket: string): void {
    this.entries.delete(bucket);
    this.invalidations++;
  }

  get size(): number {
    return this.entries.size;
  }

  private store(bucket: string, state: BucketState): void {
    this.entries.delete(bucket);
    this.entries.set(bucket, { state, loadedAt: Date.now() });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
