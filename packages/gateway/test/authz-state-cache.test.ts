// The per-bucket state cache behind authorization: repeated requests read the backend once,
// the gateway's own writes invalidate (the next request sees a new policy), the LRU bound holds,
// and a load that raced with an invalidation is not kept.
import {
  CreateBucketCommand,
  GetObjectCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { ANONYMOUS, type RequestContext } from '@vgwrdma/backend-contract';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { describe, expect, it } from 'vitest';
import { Authorizer } from '../src/authz/index.js';
import { createGateway } from '../src/create-gateway.js';
import { IamStore } from '../src/iam/index.js';
import { s3Client } from './support/harness.js';
import { ALICE, BOB, errorName, ROOT } from './support/multi-user.js';

const ctx: RequestContext = { account: ANONYMOUS, requestId: 't', signal: new AbortController().signal };

describe('bucket state cache', () => {
  it('serves repeated requests from memory and sees the gateway’s own policy writes at once', async () => {
    const backend = new MemoryBackend();
    const iam = await IamStore.open({ root: ROOT });
    const running = await createGateway({ backend, iam, bucketStateCache: { ttlMs: 0 } }).listen({
      port: 0,
      host: '127.0.0.1',
    });
    // Count the backend's ACL reads (one per cache load).
    let aclReads = 0;
    const original = backend.getBucketAcl.bind(backend);
    backend.getBucketAcl = async (c, b) => {
      aclReads++;
      return original(c, b);
    };
    const root = s3Client(running.url, ROOT.access, ROOT.secret);
    try {
      await root.send(new CreateBucketCommand({ Bucket: 'bkt' }));
      await root.send(new PutObjectCommand({ Bucket: 'bkt', Key: 'k', Body: 'v' }));
      const before = aclReads;
      for (let i = 0; i < 5; i++) await root.send(new GetObjectCommand({ Bucket: 'bkt', Key: 'k' }));
      expect(aclReads - before).toBeLessThanOrEqual(1);
    } finally {
      root.destroy();
      await running.close();
    }
  });

  it('keeps at most maxEntries buckets and drops a load that raced with an invalidation', async () => {
    const backend = new MemoryBackend();
    for (const b of ['bk1', 'bk2', 'bk3'])
      await backend.createBucket(ctx, {
        bucket: b,
        owner: ALICE.access,
        acl: { Owner: ALICE.access, Grantees: [] },
      });
    const { cache } = new Authorizer({ cache: { maxEntries: 2, ttlMs: 0 } });
    await cache.get(backend, ctx, 'bk1');
    await cache.get(backend, ctx, 'bk2');
    await cache.get(backend, ctx, 'bk1');
    expect(cache.loads).toBe(2);
    await cache.get(backend, ctx, 'bk3');
    expect(cache.size).toBe(2);
    await cache.get(backend, ctx, 'bk1'); // still cached (recently used)
    expect(cache.loads).toBe(3);
    await cache.get(backend, ctx, 'bk2'); // evicted: read again
    expect(cache.loads).toBe(4);

    // A write lands while a load is in flight: that load is answered but not kept.
    const pending = cache.get(backend, ctx, 'bk3');
    cache.invalidate('bk3');
    await pending;
    const policy = {
      Statement: [
        {
          Effect: 'Allow',
          Principal: { AWS: BOB.access },
          Action: 's3:GetObject',
          Resource: 'arn:aws:s3:::bk3/*',
        },
      ],
    };
    await backend.putBucketPolicy(ctx, 'bk3', JSON.stringify(policy));
    const fresh = await cache.get(backend, ctx, 'bk3');
    expect(fresh.policy?.statements).toHaveLength(1);
  });

  it('applies a new policy on the very next request', async () => {
    const backend = new MemoryBackend();
    const iam = await IamStore.open({ root: ROOT });
    const running = await createGateway({ backend, iam }).listen({ port: 0, host: '127.0.0.1' });
    const root = s3Client(running.url, ROOT.access, ROOT.secret);
    try {
      await root.send(new CreateBucketCommand({ Bucket: 'pol' }));
      await root.send(new PutObjectCommand({ Bucket: 'pol', Key: 'k', Body: 'v' }));
      const anon = async () => (await fetch(`${running.url}/pol/k`)).status;
      expect(await anon()).toBe(403);
      const allow = {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::pol/*' },
        ],
      };
      await root.send(new PutBucketPolicyCommand({ Bucket: 'pol', Policy: JSON.stringify(allow) }));
      expect(await anon()).toBe(200);
      const deny = { ...allow, Statement: [{ ...allow.Statement[0], Effect: 'Deny' }] };
      await root.send(new PutBucketPolicyCommand({ Bucket: 'pol', Policy: JSON.stringify(deny) }));
      expect(await anon()).toBe(403);
      // An explicit Deny binds the owner and admins too (docs/security.md).
      expect(await errorName(root.send(new GetObjectCommand({ Bucket: 'pol', Key: 'k' })))).toBe(
        'AccessDenied',
      );
    } finally {
      root.destroy();
      await running.close();
    }
  });
});
