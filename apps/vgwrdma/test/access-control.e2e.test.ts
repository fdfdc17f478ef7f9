// Access control on the built gateway (posix backend, --iam-dir): bucket ACL details (display
// names from users.json, grants to ids and e-mail addresses that are no account, group grantees,
// an ACL with no grants), the public access block (boto3 for Put/Get/DeletePublicAccessBlock,
// then each setting enforced through @aws-sdk/client-s3), GetBucketPolicyStatus, 404 vs 403 for
// a missing key, and a tree written by versitygw (no object ACLs, `all-users` group) still served.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  CreateBucketCommand,
  DeletePublicAccessBlockCommand,
  GetBucketAclCommand,
  GetBucketPolicyStatusCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketAclCommand,
  PutBucketPolicyCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  PutPublicAccessBlockCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import {
  allow,
  bucketArn,
  type GatewayProcess,
  objectsArn,
  policyDocument,
  putBucketPolicy,
} from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { ALICE, ALL_USERS, BOB } from './helpers/acl-accounts.js';

const run = promisify(execFile);

/** The error's name and HTTP status ('' and 200 on success). */
async function outcome(p: Promise<unknown>): Promise<[string, number]> {
  return p.then(
    () => ['', 200],
    (e: { name?: string; $metadata?: { httpStatusCode?: number } }) => [
      e.name ?? 'Error',
      e.$metadata?.httpStatusCode ?? 0,
    ],
  );
}
const errorName = async (p: Promise<unknown>) => (await outcome(p))[0];

const BOB_ONLY = { AWS: [BOB.access] };

// boto3 (Debian's python3-boto3) against the gateway: each step's error code or result as JSON.
const BOTO_SCRIPT = `
import json, sys, boto3, botocore
c = boto3.client('s3', endpoint_url=sys.argv[1], aws_access_key_id=sys.argv[2], aws_secret_access_key=sys.argv[3],
                 region_name='us-east-1', config=botocore.config.Config(s3={'addressing_style': 'path'}))
b = sys.argv[4]
def step(f):
    try:
        r = f()
        return r.get('PublicAccessBlockConfiguration', 'ok')
    except botocore.exceptions.ClientError as e:
        return [e.response['Error']['Code'], e.response['ResponseMetadata']['HTTPStatusCode']]
out = [step(lambda: c.get_public_access_block(Bucket=b))]
out.append(step(lambda: c.put_public_access_block(Bucket=b, PublicAccessBlockConfiguration={
    'BlockPublicAcls': True, 'IgnorePublicAcls': False, 'BlockPublicPolicy': True, 'RestrictPublicBuckets': False})))
out.append(step(lambda: c.get_public_access_block(Bucket=b)))
out.append(step(lambda: c.delete_public_access_block(Bucket=b)))
out.append(step(lambda: c.get_public_access_block(Bucket=b)))
print(json.dumps(out))
`;

const test = sceneTest({ users: { alice: ALICE, bob: BOB } });

describe('access control', () => {
  let gw: GatewayProcess;
  let alice: S3Client;
  let bob: S3Client;
  const anon = (path: string, method = 'GET') => fetch(`${gw.url}/${path}`, { method }).then((r) => r.status);

  test.beforeAll(({ scene, clients }) => {
    gw = scene.gw;
    ({ alice, bob } = clients);
  });

  it('shows display names, refuses unknown grantees, renders groups by URI, and revokes all with no grants', async () => {
    const Bucket = 'details';
    await alice.send(new CreateBucketCommand({ Bucket }));
    await alice.send(new PutObjectCommand({ Bucket, Key: 'mine', Body: 'm' }));
    await alice.send(
      new PutBucketAclCommand({
        Bucket,
        GrantFullControl: `id="${ALICE.access}"`,
        GrantRead: 'emailAddress="bob@example.com"',
      }),
    );
    const acl = await alice.send(new GetBucketAclCommand({ Bucket }));
    expect(acl.Owner).toEqual({ ID: ALICE.access, DisplayName: 'Alice L.' });
    // Bob has no display name in users.json: the access key stands in, as before.
    expect(acl.Grants?.map((g) => [g.Grantee?.ID, g.Grantee?.DisplayName, g.Permission])).toEqual([
      [ALICE.access, 'Alice L.', 'FULL_CONTROL'],
      [BOB.access, BOB.access, 'READ'],
    ]);
    expect(
      await outcome(alice.send(new PutBucketAclCommand({ Bucket, GrantRead: 'id="no-such-account"' }))),
    ).toEqual(['InvalidArgument', 400]);
    expect(
      await outcome(
        alice.send(new PutBucketAclCommand({ Bucket, GrantRead: 'emailAddress="x@nowhere.example"' })),
      ),
    ).toEqual(['UnresolvableGrantByEmailAddress', 400]);
    await alice.send(new PutBucketAclCommand({ Bucket, ACL: 'public-read' }));
    const pub = await alice.send(new GetBucketAclCommand({ Bucket }));
    expect(pub.Grants?.find((g) => g.Grantee?.Type === 'Group')?.Grantee).toEqual({
      Type: 'Group',
      URI: ALL_USERS,
    });

    // No grants at all: even the owner loses READ and WRITE, but keeps her objects and the ACL.
    await alice.send(
      new PutBucketAclCommand({ Bucket, AccessControlPolicy: { Owner: { ID: ALICE.access }, Grants: [] } }),
    );
    expect((await alice.send(new GetBucketAclCommand({ Bucket }))).Grants ?? []).toEqual([]);
    expect(await errorName(alice.send(new ListObjectsV2Command({ Bucket })))).toBe('AccessDenied');
    expect(await errorName(alice.send(new PutObjectCommand({ Bucket, Key: 'new', Body: 'n' })))).toBe(
      'AccessDenied',
    );
    expect(await errorName(alice.send(new GetObjectCommand({ Bucket, Key: 'mine' })))).toBe('');
    expect(await anon(`${Bucket}?list-type=2`)).toBe(403);
    await alice.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }));
    expect(await errorName(alice.send(new ListObjectsV2Command({ Bucket })))).toBe('');
  });

  it('keeps a public access block per bucket (boto3)', async () => {
    const Bucket = 'pab-boto';
    await alice.send(new CreateBucketCommand({ Bucket }));
    const { stdout } = await run('python3', ['-c', BOTO_SCRIPT, gw.url, ALICE.access, ALICE.secret, Bucket]);
    expect(JSON.parse(stdout)).toEqual([
      ['NoSuchPublicAccessBlockConfiguration', 404],
      'ok',
      {
        BlockPublicAcls: true,
        IgnorePublicAcls: false,
        BlockPublicPolicy: true,
        RestrictPublicBuckets: false,
      },
      'ok',
      ['NoSuchPublicAccessBlockConfiguration', 404],
    ]);
    // Only the owner manages it.
    expect(await errorName(bob.send(new DeletePublicAccessBlockCommand({ Bucket })))).toBe('AccessDenied');
  });

  it('enforces BlockPublicAcls, IgnorePublicAcls, BlockPublicPolicy and RestrictPublicBuckets', async () => {
    const Bucket = 'pab';
    const block = (
      c: Partial<
        Record<
          'BlockPublicAcls' | 'IgnorePublicAcls' | 'BlockPublicPolicy' | 'RestrictPublicBuckets',
          boolean
        >
      >,
    ) => alice.send(new PutPublicAccessBlockCommand({ Bucket, PublicAccessBlockConfiguration: c }));
    await alice.send(new CreateBucketCommand({ Bucket }));
    await alice.send(new PutObjectCommand({ Bucket, Key: 'open', Body: 'o', ACL: 'public-read' }));
    expect(await anon(`${Bucket}/open`)).toBe(200);

    await block({ BlockPublicAcls: true });
    expect(await errorName(alice.send(new PutBucketAclCommand({ Bucket, ACL: 'public-read' })))).toBe(
      'AccessDenied',
    );
    expect(
      await errorName(alice.send(new PutObjectCommand({ Bucket, Key: 'p', Body: 'p', ACL: 'public-read' }))),
    ).toBe('AccessDenied');
    expect(
      await errorName(
        alice.send(new PutObjectAclCommand({ Bucket, Key: 'open', GrantRead: `uri="${ALL_USERS}"` })),
      ),
    ).toBe('AccessDenied');
    expect(
      await errorName(
        alice.send(new PutObjectCommand({ Bucket, Key: 'p', Body: 'p', GrantRead: `id="${BOB.access}"` })),
      ),
    ).toBe('');
    // Blocking new public ACLs leaves the existing one in force.
    expect(await anon(`${Bucket}/open`)).toBe(200);

    await block({ IgnorePublicAcls: true });
    expect(await anon(`${Bucket}/open`)).toBe(403);
    expect(await errorName(bob.send(new GetObjectCommand({ Bucket, Key: 'p' })))).toBe(''); // a grant to an account still counts

    await block({ BlockPublicPolicy: true });
    const everyone = policyDocument([allow('*', 's3:GetObject', objectsArn(Bucket))]);
    expect(await errorName(alice.send(new PutBucketPolicyCommand({ Bucket, Policy: everyone })))).toBe(
      'AccessDenied',
    );
    const bobOnly = policyDocument([allow(BOB_ONLY, 's3:GetObject', objectsArn(Bucket))]);
    expect(await errorName(alice.send(new PutBucketPolicyCommand({ Bucket, Policy: bobOnly })))).toBe('');
    expect((await alice.send(new GetBucketPolicyStatusCommand({ Bucket }))).PolicyStatus?.IsPublic).toBe(
      false,
    );

    await block({});
    await alice.send(new PutBucketPolicyCommand({ Bucket, Policy: everyone }));
    expect((await alice.send(new GetBucketPolicyStatusCommand({ Bucket }))).PolicyStatus?.IsPublic).toBe(
      true,
    );
    await alice.send(new PutObjectCommand({ Bucket, Key: 'closed', Body: 'c' }));
    expect(await anon(`${Bucket}/closed`)).toBe(200);
    expect(await errorName(bob.send(new GetObjectCommand({ Bucket, Key: 'closed' })))).toBe('');
    await block({ RestrictPublicBuckets: true });
    expect(await anon(`${Bucket}/closed`)).toBe(403);
    expect(await errorName(bob.send(new GetObjectCommand({ Bucket, Key: 'closed' })))).toBe('AccessDenied');
    expect(await errorName(alice.send(new GetObjectCommand({ Bucket, Key: 'closed' })))).toBe('');
    await alice.send(new DeletePublicAccessBlockCommand({ Bucket }));
    expect(await anon(`${Bucket}/closed`)).toBe(200);
  });

  it('answers GetBucketPolicyStatus without a policy from the bucket ACL, as Ceph RGW does', async () => {
    const Bucket = 'status';
    await alice.send(new CreateBucketCommand({ Bucket, ACL: 'public-read' }));
    expect((await alice.send(new GetBucketPolicyStatusCommand({ Bucket }))).PolicyStatus?.IsPublic).toBe(
      true,
    );
  });

  it('answers 404 for a missing key to callers who may list the bucket and 403 to others', async () => {
    const Bucket = 'lookup';
    await alice.send(new CreateBucketCommand({ Bucket }));
    // HEAD replies have no body, so only the status tells.
    const head = async (c: S3Client, Key: string) =>
      (await outcome(c.send(new HeadObjectCommand({ Bucket, Key }))))[1];
    const get = (c: S3Client, Key: string) => outcome(c.send(new GetObjectCommand({ Bucket, Key })));
    expect(await head(alice, 'missing')).toEqual(404);
    expect(await head(bob, 'missing')).toEqual(403);
    expect(await get(bob, 'missing')).toEqual(['AccessDenied', 403]);
    expect(await anon(`${Bucket}/missing`, 'HEAD')).toBe(403);

    await alice.send(
      new PutBucketAclCommand({
        Bucket,
        GrantFullControl: `id="${ALICE.access}"`,
        GrantRead: `id="${BOB.access}"`,
      }),
    );
    expect(await head(bob, 'missing')).toEqual(404);
    expect(await get(bob, 'missing')).toEqual(['NoSuchKey', 404]);
    await alice.send(new PutBucketAclCommand({ Bucket, ACL: 'public-read' }));
    expect(await anon(`${Bucket}/missing`, 'HEAD')).toBe(404);
    await alice.send(new PutBucketAclCommand({ Bucket, ACL: 'private' }));

    // A policy that lets Bob list one prefix only: 404 there, 403 elsewhere.
    await putBucketPolicy(alice, Bucket, [
      allow(BOB_ONLY, 's3:GetObject', objectsArn(Bucket)),
      allow(BOB_ONLY, 's3:ListBucket', bucketArn(Bucket), { StringLike: { 's3:prefix': 'pub/*' } }),
    ]);
    expect(await head(bob, 'pub/missing')).toEqual(404);
    expect(await head(bob, 'priv/missing')).toEqual(403);
    await alice.send(new PutObjectCommand({ Bucket, Key: 'priv/there', Body: 't' }));
    expect(await head(bob, 'priv/there')).toEqual(200);
  });

  it('serves a tree written by versitygw: objects without an ACL follow the bucket ACL, all-users is AllUsers', async () => {
    const Bucket = 'legacy';
    await alice.send(new CreateBucketCommand({ Bucket }));
    // As versitygw writes them: an object with only an etag, a bucket ACL naming `all-users`.
    const file = join(gw.root, Bucket, 'old.txt');
    await writeFile(file, 'from versitygw');
    await run('setfattr', ['-n', 'user.etag', '-v', '"0123456789abcdef0123456789abcdef"', file]);
    const acl = {
      Owner: ALICE.access,
      Grantees: [
        { Permission: 'FULL_CONTROL', Access: ALICE.access, Type: 'CanonicalUser' },
        { Permission: 'READ', Access: 'all-users', Type: 'Group' },
      ],
    };
    await run('setfattr', ['-n', 'user.acl', '-v', JSON.stringify(acl), join(gw.root, Bucket)]);
    const objAcl = await alice.send(new GetObjectAclCommand({ Bucket, Key: 'old.txt' }));
    expect([objAcl.Owner?.ID, objAcl.Grants?.map((g) => [g.Grantee?.ID, g.Permission])]).toEqual([
      ALICE.access,
      [[ALICE.access, 'FULL_CONTROL']],
    ]);
    expect(await anon(`${Bucket}/old.txt`)).toBe(200);
    expect(await anon(`${Bucket}?list-type=2`)).toBe(200);
    const bucketAcl = await alice.send(new GetBucketAclCommand({ Bucket }));
    expect(bucketAcl.Grants?.map((g) => g.Grantee?.URI ?? g.Grantee?.ID)).toEqual([ALL_USERS, ALICE.access]);
  });
});
