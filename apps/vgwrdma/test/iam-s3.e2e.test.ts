// The built gateway with the S3-bucket IAM store (--s3-iam-*), the upstream being another built
// gateway in posix mode: the shared IAM scenario (admin CLI, SDK, AWS CLI, errors, cache TTL), and
// the accounts as the users.json object in the upstream bucket.
import { CreateBucketCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import {
  accountFlags,
  type GatewayProcess,
  killAllChildren,
  removeDir,
  s3Client,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOnStore, iamStoreScenario, startOnStore } from './helpers/iam-store-scenario.js';

const UPSTREAM = { access: 'upstream-root', secret: 'upstream-root-secret' };

describe('vgwrdma with --s3-iam-endpoint (upstream: the gateway in posix mode)', () => {
  let upstream: GatewayProcess;
  let n = 0;
  const upstreamClient = () => s3Client(upstream.url, UPSTREAM);

  beforeAll(async () => {
    upstream = await startGateway({ credentials: UPSTREAM });
  });
  afterAll(async () => {
    await upstream?.stop();
    killAllChildren();
    if (upstream) await removeDir(upstream.root);
  });

  async function bucketStore() {
    const bucket = `iam-store-${++n}`;
    const client = upstreamClient();
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
    return {
      bucket,
      args: [
        '--s3-iam-endpoint',
        upstream.url,
        '--s3-iam-access',
        UPSTREAM.access,
        '--s3-iam-bucket',
        bucket,
      ],
      env: { VGW_S3_IAM_SECRET_KEY: UPSTREAM.secret },
      secrets: [UPSTREAM.secret],
    };
  }

  iamStoreScenario('S3 bucket', bucketStore);

  it('keeps the accounts as users.json in the upstream bucket', { timeout: 60_000 }, async () => {
    const store = await bucketStore();
    await adminOnStore(store, 'create-user', ...accountFlags({ access: 'erin', secret: 'erin-secret' }));
    const client = upstreamClient();
    const out = await client.send(new GetObjectCommand({ Bucket: store.bucket, Key: 'users.json' }));
    const doc = JSON.parse((await out.Body?.transformToString()) ?? '') as {
      accessAccounts: Record<string, unknown>;
    };
    client.destroy();
    expect(doc.accessAccounts.erin).toEqual({
      access: 'erin',
      secret: 'erin-secret',
      role: 'user',
      userID: 0,
      groupID: 0,
      projectID: 0,
    });
  });

  it('stops naming the bucket when it does not exist', async () => {
    const r = await startOnStore(
      {
        args: [
          '--s3-iam-endpoint',
          upstream.url,
          '--s3-iam-access',
          UPSTREAM.access,
          '--s3-iam-bucket',
          'no-such-bucket',
        ],
        env: { VGW_S3_IAM_SECRET_KEY: UPSTREAM.secret },
      },
      { access: 'k', secret: 'secret-of-root' },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot read s3:\/\/no-such-bucket\/users\.json/);
    expect(r.stderr).not.toContain(UPSTREAM.secret);
  });
});
