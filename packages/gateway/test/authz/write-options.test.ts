// A write that sets the new object's ACL or tags needs s3:PutObjectAcl / s3:PutObjectTagging as
// well as the write (write-options.ts). The attack: Bob, allowed only s3:PutObject into Alice's
// bucket by her policy, uploads an object with a public-read ACL (or grants, or tags) to publish
// or label data in a bucket he does not own. Each refusal is checked to leave no object behind.
import {
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketPolicyCommand,
  GetObjectAclCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutBucketAclCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, errorName, type MultiUserGateway, startMultiUser } from '../support/multi-user.js';

const Bucket = 'alices-drop';
const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';

const allow = (actions: string[], who = BOB.access) => ({
  Effect: 'Allow',
  Principal: { AWS: [who] },
  Action: actions,
  Resource: `arn:aws:s3:::${Bucket}/*`,
});

describe('ACL and tagging options on writes', () => {
  let gw: MultiUserGateway;
  const setPolicy = (statements: object[]) =>
    gw.alice.send(
      new PutBucketPolicyCommand({
        Bucket,
        Policy: JSON.stringify({ Version: '2012-10-17', Statement: statements }),
      }),
    );
  const exists = async (Key: string) =>
    (await errorName(gw.alice.send(new HeadObjectCommand({ Bucket, Key })))) === '';

  beforeAll(async () => {
    gw = await startMultiUser();
    await gw.alice.send(new CreateBucketCommand({ Bucket }));
    await gw.alice.send(new PutObjectCommand({ Bucket, Key: 'src', Body: 'source' }));
  });
  afterAll(async () => gw?.close());

  it('refuses a public ACL, grant headers and tags from a writer allowed only s3:PutObject', async () => {
    await setPolicy([allow(['s3:PutObject', 's3:GetObject'])]);
    const attempts: [string, Partial<ConstructorParameters<typeof PutObjectCommand>[0]>][] = [
      ['public', { ACL: 'public-read' }],
      ['public-rw', { ACL: 'public-read-write' }],
      ['authenticated', { ACL: 'authenticated-read' }],
      ['grant-read', { GrantRead: `uri="${ALL_USERS}"` }],
      ['grant-full', { GrantFullControl: `id="${BOB.access}"` }],
      ['grant-write-acp', { GrantWriteACP: `id="${BOB.access}"` }],
      ['tagged', { Tagging: 'team=bob' }],
    ];
    for (const [Key, extra] of attempts) {
      const name = await errorName(gw.bob.send(new PutObjectCommand({ Bucket, Key, Body: 'x', ...extra })));
      expect(name, Key).toBe('AccessDenied');
      expect(await exists(Key), Key).toBe(false);
    }
    // The same writes without the option go through: only the option was refused.
    await gw.bob.send(new PutObjectCommand({ Bucket, Key: 'plain', Body: 'x' }));
    expect(await exists('plain')).toBe(true);
  });

  it('refuses the options on CreateMultipartUpload and CopyObject too', async () => {
    expect(
      await errorName(
        gw.bob.send(new CreateMultipartUploadCommand({ Bucket, Key: 'mp', ACL: 'public-read' })),
      ),
    ).toBe('AccessDenied');
    expect(
      await errorName(gw.bob.send(new CreateMultipartUploadCommand({ Bucket, Key: 'mp', Tagging: 'a=b' }))),
    ).toBe('AccessDenied');
    const copy = (extra: object) =>
      gw.bob.send(new CopyObjectCommand({ Bucket, Key: 'copied', CopySource: `${Bucket}/src`, ...extra }));
    expect(await errorName(copy({ ACL: 'public-read' }))).toBe('AccessDenied');
    expect(await errorName(copy({ Tagging: 'a=b', TaggingDirective: 'REPLACE' }))).toBe('AccessDenied');
    expect(await exists('copied')).toBe(false);
  });

  it('admits the canned ACLs that give nothing beyond the writer and the bucket owner', async () => {
    for (const ACL of ['private', 'bucket-owner-read', 'bucket-owner-full-control'] as const) {
      await gw.bob.send(new PutObjectCommand({ Bucket, Key: `canned-${ACL}`, Body: 'x', ACL }));
    }
    const acl = await gw.alice.send(
      new GetObjectAclCommand({ Bucket, Key: 'canned-bucket-owner-full-control' }),
    );
    expect(acl.Grants?.map((g) => [g.Grantee?.ID, g.Permission])).toContainEqual([
      ALICE.access,
      'FULL_CONTROL',
    ]);
  });

  it('admits the options where the policy allows s3:PutObjectAcl and s3:PutObjectTagging', async () => {
    await setPolicy([allow(['s3:PutObject', 's3:PutObjectAcl', 's3:PutObjectTagging'])]);
    await gw.bob.send(
      new PutObjectCommand({ Bucket, Key: 'shared', Body: 'x', ACL: 'public-read', Tagging: 'team=bob' }),
    );
    const acl = await gw.alice.send(new GetObjectAclCommand({ Bucket, Key: 'shared' }));
    expect(acl.Grants?.map((g) => [g.Grantee?.URI, g.Permission])).toContainEqual([ALL_USERS, 'READ']);
    const tags = await gw.alice.send(new GetObjectTaggingCommand({ Bucket, Key: 'shared' }));
    expect(tags.TagSet).toEqual([{ Key: 'team', Value: 'bob' }]);
  });

  it('lets an explicit Deny of the option win, also over the bucket owner', async () => {
    await setPolicy([
      allow(['s3:PutObject', 's3:PutObjectAcl']),
      {
        Effect: 'Deny',
        Principal: '*',
        Action: 's3:PutObjectAcl',
        Resource: `arn:aws:s3:::${Bucket}/locked/*`,
      },
    ]);
    for (const client of [gw.bob, gw.alice]) {
      const put = client.send(
        new PutObjectCommand({ Bucket, Key: 'locked/a', Body: 'x', ACL: 'public-read' }),
      );
      expect(await errorName(put)).toBe('AccessDenied');
    }
    expect(await exists('locked/a')).toBe(false);
    // The owner without a Deny sets any ACL on its own bucket's objects.
    await gw.alice.send(new PutObjectCommand({ Bucket, Key: 'open/a', Body: 'x', ACL: 'public-read' }));
  });

  it('lets a writer admitted by the bucket ACL set the ACL of the object it will own', async () => {
    await gw.alice.send(new DeleteBucketPolicyCommand({ Bucket }));
    await gw.alice.send(
      new PutBucketAclCommand({
        Bucket,
        GrantWrite: `id="${BOB.access}"`,
        GrantFullControl: `id="${ALICE.access}"`,
      }),
    );
    await gw.bob.send(
      new PutObjectCommand({ Bucket, Key: 'by-acl', Body: 'x', ACL: 'public-read', Tagging: 'k=v' }),
    );
    const acl = await gw.bob.send(new GetObjectAclCommand({ Bucket, Key: 'by-acl' }));
    expect(acl.Owner?.ID).toBe(BOB.access);
    expect(acl.Grants?.map((g) => [g.Grantee?.URI, g.Permission])).toContainEqual([ALL_USERS, 'READ']);
  });
});
