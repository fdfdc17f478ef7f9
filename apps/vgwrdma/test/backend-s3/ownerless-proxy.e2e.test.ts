// Buckets without an owner document behind the s3 proxy, on the built app in front of a second
// gateway process (the upstream): a bucket created directly upstream is nobody's to the proxy.
// The attack: a userplus account's CreateBucket through the proxy (us-east-1, so the upstream
// answered its own credentials' re-create with 200) wrote that account's ACL into the meta bucket
// and handed it the bucket and everything in it. Now BucketAlreadyExists; an admin's CreateBucket
// gives no owner either; --adopt-ownerless-buckets does, and stops the start without a meta
// bucket (no owners to keep). Only against a posix-gateway upstream of its own: adopting on the
// run's shared RGW would take other suites' buckets.
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  type AppProcess,
  type IamUser,
  loopbackArgs,
  makeTempDir,
  ROOT_CREDENTIALS,
  removeDir,
  runMain,
  s3Client,
  startApp,
  writeUsers,
} from '@vgwrdma/test-kit';
import { expectS3Error } from '@vgwrdma/test-kit/scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetaBucket, startUpstreamGateway, type UpstreamGateway } from './upstream-gateway.js';
import { UPSTREAM_START_TIMEOUT_MS } from './upstreams.js';

const ALICE: IamUser = { access: 'alice-key', secret: 'alice-secret', role: 'userplus' };

// An external upstream (BACKEND_S3_TEST_ENDPOINT) is shared too: adopting there would take its buckets.
const external = process.env.BACKEND_S3_TEST_ENDPOINT;

describe.skipIf(external !== undefined)('s3 proxy: a bucket made upstream without an owner document', () => {
  let upstream: UpstreamGateway;
  let iamDir: string;
  let meta = '';
  const legacy = 'made-upstream';
  const clients: S3Client[] = [];
  const client = (url: string, who: { access: string; secret: string }) => {
    const c = s3Client(url, who);
    clients.push(c);
    return c;
  };

  /** `vgwrdma --iam-dir … [global] s3 …` in front of the upstream. */
  function proxyArgs(global: readonly string[], s3: readonly string[]): string[] {
    return [
      ...loopbackArgs(),
      '--quiet',
      '--iam-dir',
      iamDir,
      ...global,
      's3',
      '--endpoint',
      upstream.endpoint,
      '--region',
      upstream.region,
      '--access',
      upstream.access,
      '--secret',
      upstream.secret,
      '--use-path-style',
      ...s3,
    ];
  }

  beforeAll(async () => {
    upstream = await startUpstreamGateway();
    meta = await createMetaBucket(upstream, 'ownerless-meta');
    iamDir = await makeTempDir('vgwrdma-ownerless-proxy-iam-');
    await writeUsers(iamDir, [ALICE]);
    await upstream.client.send(new CreateBucketCommand({ Bucket: legacy }));
    await upstream.client.send(
      new PutObjectCommand({ Bucket: legacy, Key: 'ledger', Body: 'upstream data' }),
    );
  }, UPSTREAM_START_TIMEOUT_MS);

  afterAll(async () => {
    for (const c of clients) c.destroy();
    await upstream?.stop();
    if (iamDir) await removeDir(iamDir);
  });

  it('answers BucketAlreadyExists to a userplus account, and BucketAlreadyOwnedByYou to an admin, giving no owner', async () => {
    const proxy: AppProcess = await startApp(proxyArgs([], ['--meta-bucket', meta]));
    try {
      const alice = client(proxy.url, ALICE);
      const root = client(proxy.url, ROOT_CREDENTIALS);
      const recreates: [S3Client, string][] = [
        [alice, 'BucketAlreadyExists'],
        [root, 'BucketAlreadyOwnedByYou'],
      ];
      for (const [who, code] of recreates) {
        await expectS3Error(who.send(new CreateBucketCommand({ Bucket: legacy })), code, 409);
        // Still nobody's: Alice is still refused.
        await expectS3Error(
          alice.send(new GetObjectCommand({ Bucket: legacy, Key: 'ledger' })),
          'AccessDenied',
        );
      }
      // A new bucket is Alice's as before (positive control).
      await alice.send(new CreateBucketCommand({ Bucket: 'alice-fresh' }));
      await alice.send(new PutObjectCommand({ Bucket: 'alice-fresh', Key: 'k', Body: 'mine' }));
    } finally {
      await proxy.stop();
    }
  });

  it('gives it to the account --adopt-ownerless-buckets names, at start-up', async () => {
    const proxy = await startApp(
      proxyArgs(['--adopt-ownerless-buckets', ALICE.access], ['--meta-bucket', meta]),
    );
    try {
      const alice = client(proxy.url, ALICE);
      const got = await alice.send(new GetObjectCommand({ Bucket: legacy, Key: 'ledger' }));
      expect(await got.Body?.transformToString()).toBe('upstream data');
      const kept = await alice.send(new GetObjectCommand({ Bucket: 'alice-fresh', Key: 'k' }));
      expect(await kept.Body?.transformToString()).toBe('mine');
    } finally {
      await proxy.stop();
    }
  });

  it('stops the start when the proxy keeps no owners (no --meta-bucket)', async () => {
    const r = await runMain(proxyArgs(['--adopt-ownerless-buckets', ALICE.access], []));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--adopt-ownerless-buckets: this backend keeps no bucket owners');
  });
});
