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
import { ALICE, BOB } from '@vgwrdma/test-kit';
import { expectS3Error, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect } from 'vitest';

// The kit's ALICE may create buckets (userplus); BOB is a plain user.

const test = sceneTest({ users: { alice: ALICE, bob: BOB } });

describe('vgwrdma --iam-dir', () => {
  test('lets a second user in only where a policy or ACL grants it', async ({ url, clients }) => {
    const { alice, bob } = clients;
    await alice.send(new CreateBucketCommand({ Bucket: 'shared' }));
    await alice.send(new PutObjectCommand({ Bucket: 'shared', Key: 'a.txt', Body: 'from alice' }));
    await expectS3Error(bob.send(new GetObjectCommand({ Bucket: 'shared', Key: 'a.txt' })), 'AccessDenied');
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
    await expectS3Error(
      bob.send(new PutObjectCommand({ Bucket: 'shared', Key: 'b', Body: 'x' })),
      'AccessDenied',
    );

    expect((await fetch(`${url}/shared/a.txt`)).status).toBe(403);
    // A public-read bucket lists to anyone; reading an object takes its own ACL (as on S3).
    await alice.send(new PutBucketAclCommand({ Bucket: 'shared', ACL: 'public-read' }));
    expect((await fetch(`${url}/shared?list-type=2`)).status).toBe(200);
    expect((await fetch(`${url}/shared/a.txt`)).status).toBe(403);
    await alice.send(new PutObjectAclCommand({ Bucket: 'shared', Key: 'a.txt', ACL: 'public-read' }));
    const anon = await fetch(`${url}/shared/a.txt`);
    expect([anon.status, await anon.text()]).toEqual([200, 'from alice']);
  });

  test('refuses CreateBucket to a plain user; userplus and the root account may create', async ({
    s3: root,
    clients: { alice, bob },
  }) => {
    await expectS3Error(bob.send(new CreateBucketCommand({ Bucket: 'bobs-own' })), 'AccessDenied', 403);
    // Nothing was created: the admin, who sees every bucket, finds none by that name.
    await expectS3Error(root.send(new HeadBucketCommand({ Bucket: 'bobs-own' })), 'NotFound');
    await alice.send(new CreateBucketCommand({ Bucket: 'alices-own' }));
    await root.send(new CreateBucketCommand({ Bucket: 'roots-own' }));
  });

  test('picks up users.json rewritten by another process', async ({ scene }) => {
    const carol = scene.client({ access: 'carol-key', secret: 'carol-secret' });
    await expectS3Error(carol.send(new ListBucketsCommand({})), 'InvalidAccessKeyId');
    await scene.writeUsers([ALICE, BOB, { access: 'carol-key', secret: 'carol-secret' }]);
    await carol.send(new ListBucketsCommand({}));
  });
});
