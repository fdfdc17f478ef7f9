// ACLs and bucket policies shaped as Ceph RGW answers them, on the built gateway (posix with
// --iam-dir and --versioning-dir) driven by boto3 and @aws-sdk/client-s3: grant lists with group
// grants first and every account grant carrying ID and DisplayName (bucket-owner-* and versioned
// objects included); GetBucketPolicyStatus from the policy and the bucket ACL; policy statements
// mixing bucket and object actions; PutObject conditions on x-amz-grant-* / x-amz-acl; an Allow
// with NotPrincipal and ...IfExists with a missing key; and an explicit Deny binding the bucket
// owner and admins, except the owner's own policy actions.
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketPolicyCommand,
  GetBucketAclCommand,
  GetBucketPolicyCommand,
  GetBucketPolicyStatusCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  GetPublicAccessBlockCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutObjectCommand,
  PutPublicAccessBlockCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import {
  allow,
  bucketArn,
  deny,
  type IamUser,
  objectsArn,
  type PolicyStatement,
  putBucketPolicy,
} from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { ALL_USERS, AUTH_USERS } from './helpers/acl-accounts.js';
import { BOTO3_PYTHON, boto3Run } from './helpers/boto3.js';

const MAIN: IamUser = {
  access: 'rgw-main',
  secret: 'rgw-main-secret',
  role: 'userplus',
  displayName: 'Main M.',
};
const ALT: IamUser = { access: 'rgw-alt', secret: 'rgw-alt-secret', displayName: 'Alt A.' };
const ADMIN: IamUser = { access: 'rgw-admin', secret: 'rgw-admin-secret', role: 'admin' };

/** '' for success, else the error's name (403 for a HEAD without a body). */
async function outcome(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => '',
    (e: { name?: string; $metadata?: { httpStatusCode?: number } }) =>
      e.$metadata?.httpStatusCode === 403 ? 'AccessDenied' : (e.name ?? 'Error'),
  );
}

const canonical = (u: IamUser, Permission: string) => ({
  Grantee: { ID: u.access, DisplayName: u.displayName ?? u.access, Type: 'CanonicalUser' },
  Permission,
});
const groupGrant = (URI: string, Permission: string) => ({ Grantee: { URI, Type: 'Group' }, Permission });

const test = sceneTest({ users: { main: MAIN, alt: ALT, admin: ADMIN }, versioning: true });

describe('S3 behaviour as Ceph RGW answers it: ACL shapes and bucket policies', { timeout: 180_000 }, () => {
  let url: string;
  let main: S3Client;
  let alt: S3Client;
  let admin: S3Client;
  const boto = (user: IamUser, program: string) => boto3Run(url, user, program);

  test.beforeAll(({ scene, clients }) => {
    url = scene.url;
    ({ main, alt, admin } = clients);
  });

  /** A boto3 case (skipped without boto3): `program` run as `user`; `check` gets what it out()-ed. */
  const botoIt = (
    title: string,
    user: IamUser,
    program: string,
    check: (got: Record<string, unknown>) => Promise<void> | void,
  ) =>
    it.skipIf(BOTO3_PYTHON === undefined)(title, async () =>
      check((await boto(user, program)) as Record<string, unknown>),
    );

  /** MAIN's bucket under a policy of `statements`, holding object `key` (put first) when given. */
  async function policyBucket(Bucket: string, statements: readonly PolicyStatement[], key?: string) {
    await main.send(new CreateBucketCommand({ Bucket }));
    if (key !== undefined) await main.send(new PutObjectCommand({ Bucket, Key: key, Body: 'x' }));
    await putBucketPolicy(main, Bucket, statements);
  }

  botoIt(
    'lists group grants first, in the canned ACL order, with ID and DisplayName on every account (boto3)',
    MAIN,
    `
res = {}
for acl in ['public-read', 'public-read-write', 'authenticated-read', 'private']:
    b = 'rgw-shape-' + acl
    s3.create_bucket(Bucket=b, ACL=acl)
    res[acl] = s3.get_bucket_acl(Bucket=b)['Grants']
s3.put_object(Bucket='rgw-shape-private', Key='o', Body=b'x', ACL='public-read-write')
res['object'] = s3.get_object_acl(Bucket='rgw-shape-private', Key='o')['Grants']
res['status'] = {acl: s3.get_bucket_policy_status(Bucket='rgw-shape-' + acl)['PolicyStatus']['IsPublic']
                 for acl in ['public-read', 'authenticated-read', 'private']}
out(res)
`,
    async (got) => {
      const owner = canonical(MAIN, 'FULL_CONTROL');
      expect(got['public-read']).toEqual([groupGrant(ALL_USERS, 'READ'), owner]);
      expect(got['public-read-write']).toEqual([
        groupGrant(ALL_USERS, 'READ'),
        groupGrant(ALL_USERS, 'WRITE'),
        owner,
      ]);
      expect(got['authenticated-read']).toEqual([groupGrant(AUTH_USERS, 'READ'), owner]);
      expect(got.private).toEqual([owner]);
      expect(got.object).toEqual([groupGrant(ALL_USERS, 'READ'), groupGrant(ALL_USERS, 'WRITE'), owner]);
      // GetBucketPolicyStatus without a policy answers from the ACL.
      expect(got.status).toEqual({ 'public-read': true, 'authenticated-read': true, private: false });
    },
  );

  it('names the bucket owner with ID and DisplayName in bucket-owner-read / -full-control grants (SDK)', async () => {
    const Bucket = 'rgw-bucket-owner';
    await main.send(new CreateBucketCommand({ Bucket, ACL: 'public-read-write' }));
    // Clients read the owner from the bucket ACL by position: the third grant here.
    const bucketAcl = await main.send(new GetBucketAclCommand({ Bucket }));
    expect(bucketAcl.Grants?.[2]?.Grantee).toMatchObject({ ID: MAIN.access, DisplayName: MAIN.displayName });
    for (const [ACL, Permission] of [
      ['bucket-owner-read', 'READ'],
      ['bucket-owner-full-control', 'FULL_CONTROL'],
    ] as const) {
      await alt.send(new PutObjectCommand({ Bucket, Key: ACL, Body: 'x', ACL }));
      const acl = await alt.send(new GetObjectAclCommand({ Bucket, Key: ACL }));
      expect(acl.Owner).toEqual({ ID: ALT.access, DisplayName: ALT.displayName });
      expect(acl.Grants).toEqual([canonical(ALT, 'FULL_CONTROL'), canonical(MAIN, Permission)]);
    }
  });

  botoIt(
    'shapes a versioned object’s ACL the same way, per version (boto3)',
    MAIN,
    `
b = 'rgw-versioned-acl'
s3.create_bucket(Bucket=b)
s3.put_bucket_versioning(Bucket=b, VersioningConfiguration={'Status': 'Enabled'})
v1 = s3.put_object(Bucket=b, Key='k', Body=b'one', ACL='public-read')['VersionId']
s3.put_object(Bucket=b, Key='k', Body=b'two', ACL='authenticated-read')
out({'v1': s3.get_object_acl(Bucket=b, Key='k', VersionId=v1)['Grants'],
     'latest': s3.get_object_acl(Bucket=b, Key='k')['Grants']})
`,
    async (got) => {
      const owner = canonical(MAIN, 'FULL_CONTROL');
      expect(got.v1).toEqual([groupGrant(ALL_USERS, 'READ'), owner]);
      expect(got.latest).toEqual([groupGrant(AUTH_USERS, 'READ'), owner]);
    },
  );

  it('answers GetBucketPolicyStatus from the policy and the bucket ACL (SDK)', async () => {
    const status = async (Bucket: string) =>
      (await main.send(new GetBucketPolicyStatusCommand({ Bucket }))).PolicyStatus?.IsPublic;
    await main.send(new CreateBucketCommand({ Bucket: 'rgw-ps-private' }));
    expect(await status('rgw-ps-private')).toBe(false); // no policy: IsPublic false, not NoSuchBucketPolicy
    for (const ACL of ['public-read', 'public-read-write', 'authenticated-read'] as const) {
      await main.send(new CreateBucketCommand({ Bucket: `rgw-ps-${ACL}`, ACL }));
      expect(await status(`rgw-ps-${ACL}`)).toBe(true);
    }
    const Bucket = 'rgw-ps-policy';
    await main.send(new CreateBucketCommand({ Bucket }));
    const allowAll = allow('*', 's3:ListBucket', bucketArn(Bucket));
    await putBucketPolicy(main, Bucket, [
      { ...allowAll, Condition: { IpAddress: { 'aws:SourceIp': '10.0.0.0/32' } } },
    ]);
    expect(await status(Bucket)).toBe(false);
    await putBucketPolicy(main, Bucket, [allowAll]);
    expect(await status(Bucket)).toBe(true);
    // An Allow with NotPrincipal admits everyone but the accounts it names: public too.
    const { Principal: _everyone, ...allButPrincipal } = allowAll;
    await putBucketPolicy(main, Bucket, [
      { ...allButPrincipal, NotPrincipal: { AWS: `arn:aws:iam::${ALT.access}:root` } },
    ]);
    expect(await status(Bucket)).toBe(true);
    // The public access block still applies: IgnorePublicAcls makes a public ACL count for nothing.
    await main.send(
      new PutPublicAccessBlockCommand({
        Bucket: 'rgw-ps-public-read',
        PublicAccessBlockConfiguration: { IgnorePublicAcls: true },
      }),
    );
    expect(await status('rgw-ps-public-read')).toBe(false);
  });

  botoIt(
    'accepts a statement mixing bucket and object actions, refuses one whose actions apply to no resource (boto3)',
    MAIN,
    `
import botocore
b = 'rgw-mixed-statement'
s3.create_bucket(Bucket=b)
def policy(actions, resources):
    return json.dumps({'Version': '2012-10-17', 'Statement': [{'Effect': 'Allow', 'Principal': {'AWS': ['${ALT.access}']},
        'Action': actions, 'Resource': resources}]})
res = {}
s3.put_bucket_policy(Bucket=b, Policy=policy(
    ['s3:ListBucketMultipartUploads', 's3:ListMultipartUploadParts', 's3:AbortMultipartUpload', 's3:PutObject'],
    ['arn:aws:s3:::' + b, 'arn:aws:s3:::' + b + '/*']))
res['mixed'] = 'ok'
try:
    s3.put_bucket_policy(Bucket=b, Policy=policy(['s3:GetObject', 's3:PutObject'], ['arn:aws:s3:::' + b]))
    res['none'] = 'ok'
except botocore.exceptions.ClientError as e:
    res['none'] = e.response['Error']['Code']
out(res)
`,
    async (got) => {
      expect(got).toEqual({ mixed: 'ok', none: 'MalformedPolicy' });
      // The mixed statement grants each action on the resources of its kind.
      const Bucket = 'rgw-mixed-statement';
      const { UploadId } = await alt.send(new CreateMultipartUploadCommand({ Bucket, Key: 'mp' }));
      const uploads = await alt.send(new ListMultipartUploadsCommand({ Bucket }));
      expect(uploads.Uploads?.map((u) => u.UploadId)).toEqual([UploadId]);
      expect(await outcome(alt.send(new ListPartsCommand({ Bucket, Key: 'mp', UploadId })))).toBe('');
      expect(await outcome(alt.send(new AbortMultipartUploadCommand({ Bucket, Key: 'mp', UploadId })))).toBe(
        '',
      );
      expect(await outcome(alt.send(new GetObjectCommand({ Bucket, Key: 'mp' })))).toBe('AccessDenied');
    },
  );

  it.skipIf(BOTO3_PYTHON === undefined)(
    'evaluates s3:x-amz-grant-full-control on PutObject: the PUT carrying the grant is allowed (boto3)',
    async () => {
      const Bucket = 'rgw-grant-condition';
      await policyBucket(Bucket, [
        allow('*', 's3:PutObject', objectsArn(Bucket), {
          StringEquals: { 's3:x-amz-grant-full-control': `id=${MAIN.access}` },
        }),
      ]);
      const got = (await boto(
        ALT,
        `
import botocore
b = '${Bucket}'
res = {}
def grant(**kw): kw['params']['headers']['x-amz-grant-full-control'] = 'id=${MAIN.access}'
s3.meta.events.register('before-call.s3.PutObject', grant)
res['with_grant'] = s3.put_object(Bucket=b, Key='granted', Body=b'x')['ResponseMetadata']['HTTPStatusCode']
s3.meta.events.unregister('before-call.s3.PutObject', grant)
try:
    s3.put_object(Bucket=b, Key='plain', Body=b'x')
    res['without'] = 'ok'
except botocore.exceptions.ClientError as e:
    res['without'] = e.response['Error']['Code']
out(res)
`,
      )) as Record<string, unknown>;
      expect(got).toEqual({ with_grant: 200, without: 'AccessDenied' });
      const acl = await main.send(new GetObjectAclCommand({ Bucket, Key: 'granted' }));
      expect(acl.Grants).toEqual([canonical(MAIN, 'FULL_CONTROL')]);
    },
  );

  it('evaluates s3:x-amz-acl on PutObject: the ACL the condition names is allowed, another is not (SDK)', async () => {
    const Bucket = 'rgw-acl-condition';
    await policyBucket(Bucket, [
      allow({ AWS: ALT.access }, 's3:PutObject', objectsArn(Bucket), {
        StringEquals: { 's3:x-amz-acl': 'public-read' },
      }),
    ]);
    const put = (ACL?: 'public-read' | 'authenticated-read') =>
      outcome(
        alt.send(new PutObjectCommand({ Bucket, Key: `k-${ACL}`, Body: 'x', ...(ACL ? { ACL } : {}) })),
      );
    expect(await put('public-read')).toBe('');
    expect(await put('authenticated-read')).toBe('AccessDenied');
    expect(await put()).toBe('AccessDenied');
    const acl = await alt.send(new GetObjectAclCommand({ Bucket, Key: 'k-public-read' }));
    expect(acl.Grants).toEqual([groupGrant(ALL_USERS, 'READ'), canonical(ALT, 'FULL_CONTROL')]);
  });

  it('an Allow with NotPrincipal admits everyone but the principals it names, anonymous included (SDK)', async () => {
    const Bucket = 'rgw-not-principal';
    await policyBucket(
      Bucket,
      [
        {
          Effect: 'Allow',
          NotPrincipal: { AWS: [ALT.access] },
          Action: 's3:GetObject',
          Resource: objectsArn(Bucket),
        },
      ],
      'k',
    );
    expect(await outcome(alt.send(new GetObjectCommand({ Bucket, Key: 'k' })))).toBe('AccessDenied');
    expect((await fetch(`${url}/${Bucket}/k`)).status).toBe(200);
  });

  it('StringNotEqualsIfExists holds for a missing key and compares a present one (anonymous caller)', async () => {
    const Bucket = 'rgw-if-exists';
    await policyBucket(
      Bucket,
      [
        allow('*', 's3:GetObject', objectsArn(Bucket), {
          StringNotEqualsIfExists: { 'aws:Referer': 'http://blocked.example/' },
        }),
      ],
      'k',
    );
    const get = (headers: Record<string, string>) =>
      fetch(`${url}/${Bucket}/k`, { headers }).then((r) => r.status);
    expect(await get({})).toBe(200);
    expect(await get({ referer: 'http://other.example/' })).toBe(200);
    expect(await get({ referer: 'http://blocked.example/' })).toBe(403);
  });

  it('an explicit Deny binds the bucket owner and admins, but the owner keeps the policy actions (SDK)', async () => {
    const Bucket = 'rgw-deny-owner';
    await main.send(new CreateBucketCommand({ Bucket }));
    await main.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'x' }));
    await main.send(
      new PutPublicAccessBlockCommand({ Bucket, PublicAccessBlockConfiguration: { BlockPublicAcls: true } }),
    );
    // Positive control: without a Deny both read.
    for (const c of [main, admin]) {
      expect(await outcome(c.send(new GetObjectCommand({ Bucket, Key: 'k' })))).toBe('');
      expect(await outcome(c.send(new GetPublicAccessBlockCommand({ Bucket })))).toBe('');
    }
    await putBucketPolicy(main, Bucket, [
      deny(
        '*',
        ['s3:GetObject', 's3:GetBucketPublicAccessBlock', 's3:*Policy'],
        [bucketArn(Bucket), objectsArn(Bucket)],
      ),
    ]);
    for (const c of [main, admin]) {
      expect(await outcome(c.send(new GetObjectCommand({ Bucket, Key: 'k' })))).toBe('AccessDenied');
      expect(await outcome(c.send(new GetPublicAccessBlockCommand({ Bucket })))).toBe('AccessDenied');
    }
    // The owner can still read and undo the policy that locks everyone out.
    expect(await outcome(main.send(new GetBucketPolicyCommand({ Bucket })))).toBe('');
    expect(await outcome(alt.send(new GetBucketPolicyCommand({ Bucket })))).toBe('AccessDenied');
    await main.send(new DeleteBucketPolicyCommand({ Bucket }));
    expect(await outcome(main.send(new GetObjectCommand({ Bucket, Key: 'k' })))).toBe('');
    expect(await outcome(admin.send(new GetPublicAccessBlockCommand({ Bucket })))).toBe('');
  });
});
