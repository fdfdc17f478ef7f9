// The *Version actions of object sub-resources over a real gateway (posix backend with a
// versioning directory): a user allowed GetObjectTagging, PutObjectTagging, DeleteObjectTagging
// and GetObjectAttributes on the current object is refused the same requests on a named version
// unless the policy allows their *Version variants; nothing changes on refusal. (Object ACLs map
// the same way, s3:GetObjectVersionAcl, but the posix backend does not implement them.)
import {
  CreateBucketCommand,
  DeleteObjectTaggingCommand,
  GetObjectAttributesCommand,
  GetObjectTaggingCommand,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOB, errorName, type MultiUserGateway, startMultiUser } from './support/multi-user.js';

const Bucket = 'versioned';
const BASE = [
  's3:GetObjectTagging',
  's3:PutObjectTagging',
  's3:DeleteObjectTagging',
  's3:GetObjectAttributes',
];
const VERSIONED = [
  's3:GetObjectVersionTagging',
  's3:PutObjectVersionTagging',
  's3:DeleteObjectVersionTagging',
  's3:GetObjectVersionAttributes',
];

describe('version variants of object sub-resources', () => {
  let gw: MultiUserGateway;
  let v1 = '';
  const allow = (Action: string[]) =>
    gw.alice.send(
      new PutBucketPolicyCommand({
        Bucket,
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: { AWS: [BOB.access] },
              Action,
              Resource: `arn:aws:s3:::${Bucket}/*`,
            },
          ],
        }),
      }),
    );
  /** Bob's four requests on `doc` (a version when `VersionId` is set), as error names. */
  const bobsRequests = (VersionId?: string) => {
    const k = { Bucket, Key: 'doc', ...(VersionId ? { VersionId } : {}) };
    return Promise.all([
      errorName(gw.bob.send(new GetObjectTaggingCommand(k))),
      errorName(
        gw.bob.send(
          new PutObjectTaggingCommand({ ...k, Tagging: { TagSet: [{ Key: 'by', Value: 'bob' }] } }),
        ),
      ),
      errorName(gw.bob.send(new DeleteObjectTaggingCommand(k))),
      errorName(gw.bob.send(new GetObjectAttributesCommand({ ...k, ObjectAttributes: ['ETag'] }))),
    ]);
  };
  beforeAll(async () => {
    gw = await startMultiUser({}, { versioning: true });
    await gw.alice.send(new CreateBucketCommand({ Bucket }));
    await gw.alice.send(
      new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    const put = (Body: string) =>
      gw.alice.send(new PutObjectCommand({ Bucket, Key: 'doc', Body, Tagging: 'v=1' }));
    v1 = (await put('one')).VersionId ?? '';
    await put('two');
  });
  afterAll(async () => gw.close());

  it('refuses them on a version without the *Version permissions, and leaves its tags alone', async () => {
    await allow(BASE);
    expect(await bobsRequests()).toEqual(['', '', '', '']);
    expect(await bobsRequests(v1)).toEqual(Array(4).fill('AccessDenied'));
    const tags = await gw.alice.send(new GetObjectTaggingCommand({ Bucket, Key: 'doc', VersionId: v1 }));
    expect(tags.TagSet).toEqual([{ Key: 'v', Value: '1' }]);
  });

  it('serves them on a version with the *Version permissions', async () => {
    await allow([...BASE, ...VERSIONED]);
    expect(await bobsRequests(v1)).toEqual(['', '', '', '']);
  });
});
