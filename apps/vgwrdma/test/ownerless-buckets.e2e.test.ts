// Buckets without a recorded owner on the built gateway (posix backend, --iam-dir, us-east-1):
// a directory an operator made by hand in the root is nobody's. A userplus account's
// CreateBucket on it answers BucketAlreadyExists (before: 200, and the caller owned it and
// everything in it), and the account can neither read nor write it; an admin's CreateBucket
// gives it no owner either. The admin CLI's change-bucket-owner gives it one, and
// --adopt-ownerless-buckets does so at start-up. Positive controls: the owner's own re-create
// in us-east-1 still answers 200, and another account's bucket still answers BucketAlreadyExists.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetBucketAclCommand,
  GetObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import {
  ALICE,
  adminCli,
  type IamScene,
  type IamUser,
  loopbackArgs,
  makeTempDir,
  ROOT_CREDENTIALS,
  removeDir,
  runMain,
  startIamScene,
  writeUsers,
} from '@vgwrdma/test-kit';
import { expectS3Error } from '@vgwrdma/test-kit/scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CAROL: IamUser = { access: 'carol-key', secret: 'carol-secret', role: 'userplus' };

/** A bucket directory made by hand, as an operator would: no ACL attribute, one object file. */
async function handmadeBucket(root: string, name: string): Promise<void> {
  await mkdir(join(root, name));
  await writeFile(join(root, name, 'payroll.csv'), 'operator data');
}

/** `vgwrdma admin` as root against the gateway at `url`. */
const admin = (url: string, ...args: string[]) => adminCli(url)(...args);

async function ownersOf(url: string): Promise<Record<string, string | undefined>> {
  const r = await admin(url, 'list-buckets', '--json');
  expect(r.code, r.stderr).toBe(0);
  const rows = JSON.parse(r.stdout) as { name: string; owner?: string }[];
  return Object.fromEntries(rows.map((b) => [b.name, b.owner === '' ? undefined : b.owner]));
}

describe('buckets without a recorded owner', () => {
  let scene: IamScene;
  let root: string;

  beforeAll(async () => {
    root = await makeTempDir('vgwrdma-ownerless-');
    await handmadeBucket(root, 'handmade');
    await handmadeBucket(root, 'handmade-admin');
    scene = await startIamScene({ users: [ALICE, CAROL], root });
  });
  afterAll(() => scene?.stop());

  it('refuses a userplus account’s CreateBucket on a handmade directory, and keeps it unreadable and unwritable', async () => {
    const alice = scene.client(ALICE);
    // The attack: on the old code this answered 200 and Alice owned the bucket from then on.
    await expectS3Error(
      alice.send(new CreateBucketCommand({ Bucket: 'handmade' })),
      'BucketAlreadyExists',
      409,
    );
    await expectS3Error(
      alice.send(new GetObjectCommand({ Bucket: 'handmade', Key: 'payroll.csv' })),
      'AccessDenied',
    );
    await expectS3Error(
      alice.send(new PutObjectCommand({ Bucket: 'handmade', Key: 'payroll.csv', Body: 'x' })),
      'AccessDenied',
    );
    await expectS3Error(alice.send(new ListObjectsV2Command({ Bucket: 'handmade' })), 'AccessDenied');
    const mine = await alice.send(new ListBucketsCommand({}));
    expect((mine.Buckets ?? []).map((b) => b.Name)).not.toContain('handmade');
    expect((await ownersOf(scene.gw.url)).handmade).toBeUndefined();
  });

  it('gives it no owner on an admin’s CreateBucket either (BucketAlreadyOwnedByYou, nothing reset)', async () => {
    const root = scene.client(ROOT_CREDENTIALS);
    await expectS3Error(
      root.send(new CreateBucketCommand({ Bucket: 'handmade-admin' })),
      'BucketAlreadyOwnedByYou',
      409,
    );
    expect((await ownersOf(scene.gw.url))['handmade-admin']).toBeUndefined();
    // Admins serve it as before.
    const got = await root.send(new GetObjectCommand({ Bucket: 'handmade-admin', Key: 'payroll.csv' }));
    expect(await got.Body?.transformToString()).toBe('operator data');
  });

  it('keeps the owner’s own re-create in us-east-1 (200, still theirs) and others’ BucketAlreadyExists', async () => {
    const alice = scene.client(ALICE);
    const carol = scene.client(CAROL);
    await alice.send(new CreateBucketCommand({ Bucket: 'alice-own' }));
    await alice.send(new PutObjectCommand({ Bucket: 'alice-own', Key: 'k', Body: 'kept' }));
    const again = await alice.send(new CreateBucketCommand({ Bucket: 'alice-own' }));
    expect(again.$metadata.httpStatusCode).toBe(200);
    expect((await alice.send(new GetBucketAclCommand({ Bucket: 'alice-own' }))).Owner?.ID).toBe(ALICE.access);
    const kept = await alice.send(new GetObjectCommand({ Bucket: 'alice-own', Key: 'k' }));
    expect(await kept.Body?.transformToString()).toBe('kept');
    await expectS3Error(
      carol.send(new CreateBucketCommand({ Bucket: 'alice-own' })),
      'BucketAlreadyExists',
      409,
    );
  });

  it('gives it to an account by the admin CLI’s change-bucket-owner, and only then', async () => {
    const moved = await admin(
      scene.gw.url,
      'change-bucket-owner',
      '--bucket',
      'handmade',
      '--owner',
      CAROL.access,
    );
    expect(moved.code, moved.stderr).toBe(0);
    expect((await ownersOf(scene.gw.url)).handmade).toBe(CAROL.access);
    const carol = scene.client(CAROL);
    const got = await carol.send(new GetObjectCommand({ Bucket: 'handmade', Key: 'payroll.csv' }));
    expect(await got.Body?.transformToString()).toBe('operator data');
    await carol.send(new PutObjectCommand({ Bucket: 'handmade', Key: 'new.txt', Body: 'n' }));
    // Now it is Carol's: her re-create is the us-east-1 200, Alice's is still refused.
    const again = await carol.send(new CreateBucketCommand({ Bucket: 'handmade' }));
    expect(again.$metadata.httpStatusCode).toBe(200);
    await expectS3Error(
      scene.client(ALICE).send(new CreateBucketCommand({ Bucket: 'handmade' })),
      'BucketAlreadyExists',
    );
  });
});

describe('--adopt-ownerless-buckets', () => {
  it('gives every bucket without a recorded owner to the named account at start-up', async () => {
    const root = await makeTempDir('vgwrdma-adopt-');
    await handmadeBucket(root, 'legacy-one');
    await handmadeBucket(root, 'legacy-two');
    const scene = await startIamScene({
      users: [ALICE, CAROL],
      root,
      globalArgs: ['--adopt-ownerless-buckets', CAROL.access],
    });
    try {
      const owners = await ownersOf(scene.gw.url);
      expect(owners['legacy-one']).toBe(CAROL.access);
      expect(owners['legacy-two']).toBe(CAROL.access);
      const carol = scene.client(CAROL);
      const listed = await carol.send(new ListBucketsCommand({}));
      expect((listed.Buckets ?? []).map((b) => b.Name)).toEqual(['legacy-one', 'legacy-two']);
      const got = await carol.send(new GetObjectCommand({ Bucket: 'legacy-one', Key: 'payroll.csv' }));
      expect(await got.Body?.transformToString()).toBe('operator data');
      await expectS3Error(
        scene.client(ALICE).send(new CreateBucketCommand({ Bucket: 'legacy-two' })),
        'BucketAlreadyExists',
      );
    } finally {
      await scene.stop();
    }
  });

  it('refuses to start for an account that does not exist, from the flag or its variable', async () => {
    const dir = await makeTempDir('vgwrdma-adopt-bad-');
    try {
      const root = join(dir, 'root');
      const iamDir = join(dir, 'iam');
      await mkdir(root);
      await mkdir(iamDir);
      await writeUsers(iamDir, [ALICE]);
      const args = [...loopbackArgs(), '--iam-dir', iamDir];
      const byFlag = await runMain([...args, '--adopt-ownerless-buckets', 'nobody-key', 'posix', root]);
      expect(byFlag.code).toBe(1);
      expect(byFlag.stderr).toContain('--adopt-ownerless-buckets: no account has the access key nobody-key');
      const byEnv = await runMain([...args, 'posix', root], { VGW_ADOPT_OWNERLESS_BUCKETS: 'nobody-key' });
      expect(byEnv.code).toBe(1);
      expect(byEnv.stderr).toContain('no account has the access key nobody-key');
    } finally {
      await removeDir(dir);
    }
  });
});
