// The built gateway with the S3-bucket IAM store (--s3-iam-*), the upstream being another built
// gateway in posix mode: the shared IAM scenario (admin CLI, SDK, AWS CLI, errors, cache TTL), and
// the accounts as the users.json object in the upstream bucket.
import { CreateBucketCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { accountFlags, type Scene } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect } from 'vitest';
import {
  adminOnStore,
  iamStoreScenario,
  type StoreFlags,
  startOnStore,
} from './helpers/iam-store-scenario.js';

const UPSTREAM = { access: 'upstream-root', secret: 'upstream-root-secret' };

/** The upstream: a gateway of its own (root UPSTREAM), started before the file's first test. */
const test = sceneTest({ credentials: UPSTREAM });
let upstream: Scene;
test.beforeAll(async ({ scene }) => {
  upstream = scene;
});

/** The flags and environment of an S3 IAM store in `bucket` of the upstream. */
const bucketFlags = (bucket: string): StoreFlags => ({
  args: ['--s3-iam-endpoint', upstream.url, '--s3-iam-access', UPSTREAM.access, '--s3-iam-bucket', bucket],
  env: { VGW_S3_IAM_SECRET_KEY: UPSTREAM.secret },
});

describe('vgwrdma with --s3-iam-endpoint (upstream: the gateway in posix mode)', () => {
  let n = 0;

  async function bucketStore() {
    const bucket = `iam-store-${++n}`;
    await upstream.s3.send(new CreateBucketCommand({ Bucket: bucket }));
    return { bucket, ...bucketFlags(bucket), secrets: [UPSTREAM.secret] };
  }

  iamStoreScenario('S3 bucket', bucketStore);

  test('keeps the accounts as users.json in the upstream bucket', { timeout: 60_000 }, async () => {
    const store = await bucketStore();
    await adminOnStore(store, 'create-user', ...accountFlags({ access: 'erin', secret: 'erin-secret' }));
    const out = await upstream.s3.send(new GetObjectCommand({ Bucket: store.bucket, Key: 'users.json' }));
    const doc = JSON.parse((await out.Body?.transformToString()) ?? '') as {
      accessAccounts: Record<string, unknown>;
    };
    expect(doc.accessAccounts.erin).toEqual({
      access: 'erin',
      secret: 'erin-secret',
      role: 'user',
      userID: 0,
      groupID: 0,
      projectID: 0,
    });
  });

  test('stops naming the bucket when it does not exist', async () => {
    const r = await startOnStore(bucketFlags('no-such-bucket'), { access: 'k', secret: 'secret-of-root' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot read s3:\/\/no-such-bucket\/users\.json/);
    expect(r.stderr).not.toContain(UPSTREAM.secret);
  });
});
