// Authorization through the SDK with several users: a second user granted and denied by the
// bucket ACL (listing, writing), the object ACL (reading) and the bucket policy, explicit Deny
// over any grant, anonymous access through a public-read object ACL or a policy,
// BucketOwnerEnforced, GetBucketPolicyStatus, --disable-acl.
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteBucketPolicyCommand,
  DeleteObjectsCommand,
  GetBucketAclCommand,
  GetBucketPolicyStatusCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutBucketAclCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketPolicyCommand,
  PutObjectAclCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, errorName, type MultiUserGateway, startMultiUser } from './support/multi-user.js';
import { raw, xmlField } from './support/raw-http.js';

const policy = (statements: object[]) => JSON.stringify({ Version: '2012-10-17', Statement: statements });
/** An Allow statement whose principal is Bob's access key, with a condition if given. */
const allowBob = (Action: string | string[], Resource: string, Condition?: object) => ({
  Effect: 'Allow',
  Principal: { AWS: BOB.access },
  Action,
  Resource,
  ...(Condition ? { Condition } : {}),
});

describe('ACLs and bucket policies with two users', () => {
  let gw: MultiUserGateway;
  const Bucket = 'alices';
  beforeAll(async () => {
    gw = await startMultiUser();
    await gw.alice.send(new CreateBucketCommand({ Bucket }));
    await gw.alice.send(new PutObjectCommand({ Bucket, Key: 'doc.txt', Body: 'hello' }));
  });
  afterAll(async () => gw.close());
  /** Alice sets her bucket's policy to these statements. */
  const putPolicy = (...statements: object[]) =>
    gw.alice.send(new PutBucketPolicyCommand({ Bucket, Policy: policy(statements) }));

  it('records the creator as owner and denies other users by default', async () => {
    const acl = await gw.alice.send(new GetBucketAclCommand({ Bucket }));
    expect(acl.Owner?.ID).toBe(ALICE.access);
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket, Key: 'doc.txt' })))).toBe(
      'AccessDenied',
    );
    expect(await errorName(gw.bob.send(new ListObjectsV2Command({ Bucket })))).toBe('AccessDenied');
    // The root account is an admin: allowed everywhere.
    expect(await errorName(gw.root.send(new ListObjectsV2Command({ Bucket })))).toBe('');
  });

  it('grants and revokes read to a second user by ACL grant headers', async () => {
    await gw.alice.send(new PutBucketAclCommand({ Bucket, GrantRead: `id="${BOB.access}"` }));
    const acl = await gw.alice.send(new GetBucketAclCommand({ Bucket }));
    expect(acl.Grants?.map((g) => [g.Grantee?.ID, g.Permission])).toContainEqual([BOB.access, 'READ']);
    // READ on the bucket lets Bob list; reading an object takes the object's ACL (private here).
    expect(await errorName(gw.bob.send(new ListObjectsV2Command({ Bucket })))).toBe('');
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket, Key: 'doc.txt' })))).toBe(
      'AccessDenied',
    );
    // READ does not include WRITE.
    expect(await errorName(gw.bob.send(new PutObjectCommand({ Bucket, Key: 'b', Body: 'x' })))).toBe(
      'AccessDenied',
    );
    // Header grants replace the whole ACL, the owner's grant included (as on S3): Alice may no
    // longer write, but may still set the ACL.
    expect(await errorName(gw.alice.send(new PutObjectCommand({ Bucket, Key: 'b', Body: 'x' })))).toBe(
      'AccessDenied',
    );
    await gw.alice.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }));
    expect(await errorName(gw.bob.send(new ListObjectsV2Command({ Bucket })))).toBe('AccessDenied');
  });

  it('grants write by an AccessControlPolicy body and lists the owner once', async () => {
    await gw.alice.send(
      new PutBucketAclCommand({
        Bucket,
        AccessControlPolicy: {
          Owner: { ID: ALICE.access },
          Grants: [
            { Grantee: { Type: 'CanonicalUser', ID: ALICE.access }, Permission: 'FULL_CONTROL' },
            { Grantee: { Type: 'CanonicalUser', ID: BOB.access }, Permission: 'WRITE' },
          ],
        },
      }),
    );
    const acl = await gw.alice.send(new GetBucketAclCommand({ Bucket }));
    expect(acl.Grants?.map((g) => [g.Grantee?.ID, g.Permission])).toEqual([
      [ALICE.access, 'FULL_CONTROL'],
      [BOB.access, 'WRITE'],
    ]);
    await gw.bob.send(new PutObjectCommand({ Bucket, Key: 'from-bob', Body: 'b' }));
    // Bob owns what he wrote (its ACL gives him FULL_CONTROL); WRITE on the bucket reads nothing else.
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket, Key: 'from-bob' })))).toBe('');
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket, Key: 'doc.txt' })))).toBe(
      'AccessDenied',
    );
    // Bob holds WRITE, not WRITE_ACP: he cannot change the ACL.
    expect(await errorName(gw.bob.send(new PutBucketAclCommand({ Bucket, ACL: 'public-read' })))).toBe(
      'AccessDenied',
    );
    await gw.alice.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }));
  });

  it('grants by policy on the next request and lets an explicit Deny win over an ACL grant', async () => {
    await putPolicy({
      Effect: 'Allow',
      Principal: { AWS: [BOB.access] },
      Action: ['s3:Put*', 's3:Get*'],
      Resource: `arn:aws:s3:::${Bucket}/bob/*`,
    });
    await gw.bob.send(new PutObjectCommand({ Bucket, Key: 'bob/one', Body: 'b1' }));
    expect(await errorName(gw.bob.send(new PutObjectCommand({ Bucket, Key: 'other', Body: 'x' })))).toBe(
      'AccessDenied',
    );
    // ACLs grant read; the policy denies one prefix: the Deny wins there, also for the owner.
    await gw.alice.send(
      new PutBucketAclCommand({ Bucket, GrantFullControl: `id="${BOB.access}", id="${ALICE.access}"` }),
    );
    await putPolicy({
      Effect: 'Deny',
      Principal: '*',
      Action: 's3:GetObject',
      Resource: `arn:aws:s3:::${Bucket}/secret*`,
    });
    const GrantRead = `id="${BOB.access}"`;
    await gw.alice.send(new PutObjectCommand({ Bucket, Key: 'secret.txt', Body: 's', GrantRead }));
    await gw.alice.send(new PutObjectAclCommand({ Bucket, Key: 'doc.txt', GrantRead }));
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket, Key: 'secret.txt' })))).toBe(
      'AccessDenied',
    );
    expect(await errorName(gw.alice.send(new GetObjectCommand({ Bucket, Key: 'secret.txt' })))).toBe(
      'AccessDenied',
    );
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket, Key: 'doc.txt' })))).toBe('');
    await gw.alice.send(new DeleteBucketPolicyCommand({ Bucket }));
    await gw.alice.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }));
    await gw.alice.send(new PutObjectAclCommand({ Bucket, Key: 'doc.txt', ACL: 'private' }));
    expect(await errorName(gw.alice.send(new GetObjectCommand({ Bucket, Key: 'secret.txt' })))).toBe('');
  });

  it('checks read access to the source of a copy', async () => {
    await gw.bob.send(new CreateBucketCommand({ Bucket: 'bobs' }));
    const copy = () =>
      gw.bob.send(new CopyObjectCommand({ Bucket: 'bobs', Key: 'copy', CopySource: `${Bucket}/doc.txt` }));
    expect(await errorName(copy())).toBe('AccessDenied');
    // Reading the source takes READ in the source object's ACL.
    await gw.alice.send(new PutObjectAclCommand({ Bucket, Key: 'doc.txt', GrantRead: `id="${BOB.access}"` }));
    expect(await errorName(copy())).toBe('');
    await gw.alice.send(new PutObjectAclCommand({ Bucket, Key: 'doc.txt', ACL: 'private' }));
    expect(await errorName(copy())).toBe('AccessDenied');
    // x-amz-expected-bucket-owner must name the owner when sent.
    expect(
      await errorName(
        gw.bob.send(new ListObjectsV2Command({ Bucket: 'bobs', ExpectedBucketOwner: ALICE.access })),
      ),
    ).toBe('AccessDenied');
    expect(
      await errorName(
        gw.bob.send(new ListObjectsV2Command({ Bucket: 'bobs', ExpectedBucketOwner: BOB.access })),
      ),
    ).toBe('');
  });

  it('authorizes each key of a DeleteObjects request on its own', async () => {
    await gw.alice.send(new PutObjectCommand({ Bucket, Key: 'bob/two', Body: '2' }));
    await gw.alice.send(new PutObjectCommand({ Bucket, Key: 'keep', Body: 'k' }));
    await putPolicy(allowBob('s3:DeleteObject', `arn:aws:s3:::${Bucket}/bob/*`));
    const out = await gw.bob.send(
      new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: 'bob/two' }, { Key: 'keep' }] } }),
    );
    expect(out.Deleted?.map((d) => d.Key)).toEqual(['bob/two']);
    expect(out.Errors?.map((e) => [e.Key, e.Code])).toEqual([['keep', 'AccessDenied']]);
    expect(await errorName(gw.alice.send(new GetObjectCommand({ Bucket, Key: 'keep' })))).toBe('');
    await gw.alice.send(new DeleteBucketPolicyCommand({ Bucket }));
  });

  it('refuses malformed policies with MalformedPolicy', async () => {
    const bad = [
      '{"Statement": []}',
      policy([
        { Effect: 'Maybe', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${Bucket}/*` },
      ]),
      policy([{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::other/*' }]),
      'not json',
    ];
    for (const Policy of bad) {
      expect(await errorName(gw.alice.send(new PutBucketPolicyCommand({ Bucket, Policy })))).toBe(
        'MalformedPolicy',
      );
    }
  });

  it('serves anonymous reads through a public-read ACL or a policy, and denies them otherwise', async () => {
    const anon = () => raw(gw.url, { path: `/${Bucket}/doc.txt` });
    const denied = await anon();
    expect([denied.status, xmlField(denied.body, 'Code')]).toEqual([403, 'AccessDenied']);
    // A public-read bucket lists to anyone; its private objects stay private.
    await gw.alice.send(new PutBucketAclCommand({ Bucket, ACL: 'public-read' }));
    expect((await raw(gw.url, { path: `/${Bucket}?list-type=2` })).status).toBe(200);
    expect((await anon()).status).toBe(403);
    await gw.alice.send(new PutObjectAclCommand({ Bucket, Key: 'doc.txt', ACL: 'public-read' }));
    const viaAcl = await anon();
    expect([viaAcl.status, viaAcl.body]).toEqual([200, 'hello']);
    await gw.alice.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }));
    expect((await anon()).status).toBe(200); // the object's own ACL decides its reads
    await gw.alice.send(new PutObjectAclCommand({ Bucket, Key: 'doc.txt', ACL: 'private' }));
    expect((await anon()).status).toBe(403);
    await putPolicy({
      Effect: 'Allow',
      Principal: '*',
      Action: 's3:GetObject',
      Resource: `arn:aws:s3:::${Bucket}/*`,
    });
    expect((await anon()).body).toBe('hello');
    const status = await gw.alice.send(new GetBucketPolicyStatusCommand({ Bucket }));
    expect(status.PolicyStatus?.IsPublic).toBe(true);
    // Anonymous writes stay refused; the service level never serves anonymous callers.
    const put = await raw(gw.url, { method: 'PUT', path: `/${Bucket}/anon`, body: 'x' });
    expect(put.status).toBe(403);
    const list = await raw(gw.url, { path: '/' });
    expect(xmlField(list.body, 'Message')).toBe(
      'Anonymous users cannot invoke this API. Please authenticate.',
    );
    await gw.alice.send(new DeleteBucketPolicyCommand({ Bucket }));
    expect((await anon()).status).toBe(403);
  });

  it('never serves copies, multipart initiation or ownership controls anonymously', async () => {
    await gw.alice.send(new PutBucketAclCommand({ Bucket, ACL: 'public-read-write' }));
    const cases: [string, string, Record<string, string>, string][] = [
      [
        'POST',
        `/${Bucket}/mp?uploads`,
        {},
        'Anonymous users cannot initiate multipart uploads. Please authenticate.',
      ],
      [
        'PUT',
        `/${Bucket}/copy`,
        { 'x-amz-copy-source': `/${Bucket}/doc.txt` },
        'Anonymous users cannot copy objects. Please authenticate.',
      ],
      [
        'GET',
        `/${Bucket}?ownershipControls`,
        {},
        's3:GetBucketOwnershipControls does not support Anonymous requests!',
      ],
    ];
    for (const [method, path, headers, message] of cases) {
      const res = await raw(gw.url, { method, path, headers });
      expect([res.status, xmlField(res.body, 'Message')]).toEqual([403, message]);
    }
    // public-read-write does let anonymous callers write plain objects.
    expect((await raw(gw.url, { method: 'PUT', path: `/${Bucket}/anon-put`, body: 'a' })).status).toBe(200);
    await gw.alice.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }));
  });

  it('honours policy conditions (s3:prefix on listing, aws:SourceIp)', async () => {
    await putPolicy(
      {
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${BOB.access}:root` },
        Action: 's3:ListBucket',
        Resource: `arn:aws:s3:::${Bucket}`,
        Condition: { StringLike: { 's3:prefix': 'bob/*' } },
      },
      allowBob('s3:GetObject', `arn:aws:s3:::${Bucket}/*`, { IpAddress: { 'aws:SourceIp': '10.0.0.0/8' } }),
    );
    expect(await errorName(gw.bob.send(new ListObjectsV2Command({ Bucket, Prefix: 'bob/' })))).toBe('');
    expect(await errorName(gw.bob.send(new ListObjectsV2Command({ Bucket })))).toBe('AccessDenied');
    // Requests come from 127.0.0.1, outside 10.0.0.0/8.
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket, Key: 'doc.txt' })))).toBe(
      'AccessDenied',
    );
    await gw.alice.send(new DeleteBucketPolicyCommand({ Bucket }));
  });

  it('evaluates object-tag conditions (existing tags read only for such policies, request tags)', async () => {
    await gw.alice.send(new PutObjectCommand({ Bucket, Key: 'tagged', Body: 't', Tagging: 'team=blue' }));
    await putPolicy(
      allowBob('s3:GetObject', `arn:aws:s3:::${Bucket}/*`, {
        StringEquals: { 's3:ExistingObjectTag/team': 'blue' },
      }),
      // Tags on a write need s3:PutObjectTagging as well (as AWS's own examples grant).
      allowBob(['s3:PutObject', 's3:PutObjectTagging'], `arn:aws:s3:::${Bucket}/*`, {
        StringEquals: { 's3:RequestObjectTag/team': 'blue' },
      }),
    );
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket, Key: 'tagged' })))).toBe('');
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket, Key: 'doc.txt' })))).toBe(
      'AccessDenied',
    );
    expect(
      await errorName(
        gw.bob.send(new PutObjectCommand({ Bucket, Key: 'nb', Body: 'x', Tagging: 'team=blue' })),
      ),
    ).toBe('');
    expect(
      await errorName(
        gw.bob.send(new PutObjectCommand({ Bucket, Key: 'nr', Body: 'x', Tagging: 'team=red' })),
      ),
    ).toBe('AccessDenied');
    await gw.alice.send(new DeleteBucketPolicyCommand({ Bucket }));
  });

  it('disables ACLs on a BucketOwnerEnforced bucket', async () => {
    const B = 'enforced';
    await gw.alice.send(new CreateBucketCommand({ Bucket: B, ObjectOwnership: 'BucketOwnerEnforced' }));
    expect(
      await errorName(
        gw.alice.send(
          new CreateBucketCommand({
            Bucket: 'enf2',
            ObjectOwnership: 'BucketOwnerEnforced',
            ACL: 'public-read',
          }),
        ),
      ),
    ).toBe('InvalidBucketAclWithObjectOwnership');
    const res = await gw.alice
      .send(new PutBucketAclCommand({ Bucket: B, ACL: 'public-read' }))
      .catch((e) => e);
    expect([res.name, res.message]).toEqual([
      'AccessControlListNotSupported',
      'The bucket does not allow ACLs.',
    ]);
    expect(
      await errorName(
        gw.alice.send(new PutObjectCommand({ Bucket: B, Key: 'k', Body: 'x', ACL: 'public-read' })),
      ),
    ).toBe('AccessControlListNotSupported');
    await gw.alice.send(
      new PutObjectCommand({ Bucket: B, Key: 'k', Body: 'x', ACL: 'bucket-owner-full-control' }),
    );
    // Grants set before enforcement stop counting once it is on.
    await gw.alice.send(
      new PutBucketOwnershipControlsCommand({
        Bucket: B,
        OwnershipControls: { Rules: [{ ObjectOwnership: 'ObjectWriter' }] },
      }),
    );
    await gw.alice.send(new PutObjectAclCommand({ Bucket: B, Key: 'k', GrantRead: `id="${BOB.access}"` }));
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket: B, Key: 'k' })))).toBe('');
    await gw.alice.send(
      new PutBucketOwnershipControlsCommand({
        Bucket: B,
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      }),
    );
    expect(await errorName(gw.bob.send(new GetObjectCommand({ Bucket: B, Key: 'k' })))).toBe('AccessDenied');
  });
});

describe('--disable-acl', () => {
  let gw: MultiUserGateway;
  beforeAll(async () => {
    gw = await startMultiUser({ disableAcl: true });
  });
  afterAll(async () => gw.close());

  it('refuses Put*Acl at the gateway level and ignores ACL headers and stored grants', async () => {
    // Accepted, but the public-read grant gives anonymous callers nothing.
    await gw.alice.send(new CreateBucketCommand({ Bucket: 'pub', ACL: 'public-read' }));
    await gw.alice.send(new PutObjectCommand({ Bucket: 'pub', Key: 'k', Body: 'x' }));
    expect((await raw(gw.url, { path: '/pub/k' })).status).toBe(403);
    const res = await gw.alice
      .send(new PutBucketAclCommand({ Bucket: 'pub', ACL: 'private' }))
      .catch((e) => e);
    expect([res.name, res.message]).toEqual([
      'AccessControlListNotSupported',
      'Access control lists are disabled at the gateway level',
    ]);
    await gw.alice.send(new CreateBucketCommand({ Bucket: 'priv' }));
    expect(
      await errorName(
        gw.alice.send(new PutBucketAclCommand({ Bucket: 'priv', GrantRead: `id="${BOB.access}"` })),
      ),
    ).toBe('AccessControlListNotSupported');
    expect(await errorName(gw.bob.send(new ListObjectsV2Command({ Bucket: 'priv' })))).toBe('AccessDenied');
  });
});
