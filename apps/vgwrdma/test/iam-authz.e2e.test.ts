// The built gateway with --iam-dir: users read from a versitygw users.json, a second user
// denied by default and granted by a bucket policy, anonymous reads through a public-read object ACL,
// a user added to the file by another process signing in without a restart, and versitygw's
// roles: a plain `user` may not create buckets, `userplus` and admin may.
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  PutBucketAclCommand,
  PutBucketPolicyCommand,
  PutObjectAclCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import {
  type GatewayProcess,
  type IamScene,
  type IamUser,
  ROOT_CREDENTIALS,
  startIamScene,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Alice may create buckets (userplus); Bob is a plain user.
const ALICE: IamUser = { access: 'alice-key', secret: 'alice-secret', role: 'userplus' };
const BOB: IamUser = { access: 'bob-key', secret: 'bob-secret' };

async function errorName(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => '',
    (e: { name?: string }) => e.name ?? 'Error',
  );
}

describe('vgwrdma --iam-dir', () => {
  let scene: IamScene;
  let gw: GatewayProcess;
  const client = (u: { access: string; secret: string }) => scene.client(u);
  beforeAll(async () => {
    scene = await startIamScene({ users: [ALICE, BOB] });
    gw = scene.gw;
  });
  afterAll(() => scene?.stop());

  it('lets a second user in only where a policy or ACL grants it', async () => {
    const alice = client(ALICE);
    const bob = client(BOB);
    await alice.send(new CreateBucketCommand({ Bucket: 'shared' }));
    await alice.send(new PutObjectCommand({ Bucket: 'shared', Key: 'a.txt', Body: 'from alice' }));
    expect(await errorName(bob.send(new GetObjectCommand({ Bucket: 'shared', Key: 'a.txt' })))).toBe(
      'AccessDenied',
    );
    const policy = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { AWS: [BOB.access] },
          Action: 's3:GetObject',
          Resource: 'arn:aws:s3:::shared/*',
        },
      ],
    };
    await alice.send(new PutBucketPolicyCommand({ Bucket: 'shared', Policy: JSON.stringify(policy) }));
    const got = await bob.send(new GetObjectCommand({ Bucket: 'shared', Key: 'a.txt' }));
    expect(await got.Body?.transformToString()).toBe('from alice');
    expect(await errorName(bob.send(new PutObjectCommand({ Bucket: 'shared', Key: 'b', Body: 'x' })))).toBe(
      'AccessDenied',
    );

    expect((await fetch(`${gw.url}/shared/a.txt`)).status).toBe(403);
    // A public-read bucket lists to anyone; reading an object takes its own ACL (as on S3).
    await alice.send(new PutBucketAclCommand({ Bucket: 'shared', ACL: 'public-read' }));
    expect((await fetch(`${gw.url}/shared?list-type=2`)).status).toBe(200);
    expect((await fetch(`${gw.url}/shared/a.txt`)).status).toBe(403);
    await alice.send(new PutObjectAclCommand({ Bucket: 'shared', Key: 'a.txt', ACL: 'public-read' }));
    const anon = await fetch(`${gw.url}/shared/a.txt`);
    expect([anon.status, await anon.text()]).toEqual([200, 'from alice']);
  });

  it('refuses CreateBucket to a plain user; userplus and the root account may create', async () => {
    const bob = client(BOB);
    const refused = await bob.send(new CreateBucketCommand({ Bucket: 'bobs-own' })).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    const root = client(ROOT_CREDENTIALS);
    // Nothing was created: the admin, who sees every bucket, finds none by that name.
    expect(await errorName(root.send(new HeadBucketCommand({ Bucket: 'bobs-own' })))).toBe('NotFound');
    expect(await errorName(client(ALICE).send(new CreateBucketCommand({ Bucket: 'alices-own' })))).toBe('');
    expect(await errorName(root.send(new CreateBucketCommand({ Bucket: 'roots-own' })))).toBe('');
  });

  it('picks up users.json rewritten by another process', async () => {
    const carol = client({ access: 'carol-key', secret: 'carol-secret' });
    expect(await errorName(carol.send(new ListBucketsCommand({})))).toBe('InvalidAccessKeyId');
    await scene.writeUsers([ALICE, BOB, { access: 'carol-key', secret: 'carol-secret' }]);
    expect(await errorName(carol.send(new ListBucketsCommand({})))).toBe('');
  });
});
