// PosixBackend's operations come from the POSIX_OPS table: exactly the Backend methods it serves
// are installed on its prototype (none left to UnsupportedBackend's NotImplemented, and no helper
// of an ops module that happens to carry a Backend method's name is served by accident), and a
// context-free operation still gets its arguments in order.
import { BACKEND_METHODS } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { PosixBackend } from '../src/posix-backend.js';
import { ctx, fixture, withBucket } from './helpers.js';

const SERVED = [
  'listBuckets',
  'createBucket',
  'headBucket',
  'deleteBucket',
  'getBucketAcl',
  'putBucketAcl',
  'changeBucketOwner',
  'listBucketsAndOwners',
  'getBucketVersioning',
  'putBucketVersioning',
  'getBucketPolicy',
  'putBucketPolicy',
  'deleteBucketPolicy',
  'getBucketOwnershipControls',
  'putBucketOwnershipControls',
  'deleteBucketOwnershipControls',
  'getPublicAccessBlock',
  'putPublicAccessBlock',
  'deletePublicAccessBlock',
  'getBucketCors',
  'putBucketCors',
  'deleteBucketCors',
  'getBucketWebsite',
  'putBucketWebsite',
  'deleteBucketWebsite',
  'getBucketNotification',
  'putBucketNotification',
  'deleteBucketNotification',
  'getBucketTagging',
  'putBucketTagging',
  'deleteBucketTagging',
  'getObjectLockConfiguration',
  'putObjectLockConfiguration',
  'putObject',
  'getObject',
  'headObject',
  'deleteObject',
  'deleteObjects',
  'copyObject',
  'listObjects',
  'listObjectsV2',
  'listObjectVersions',
  'getObjectAttributes',
  'getObjectAcl',
  'putObjectAcl',
  'getObjectTagging',
  'putObjectTagging',
  'deleteObjectTagging',
  'getObjectRetention',
  'putObjectRetention',
  'getObjectLegalHold',
  'putObjectLegalHold',
  'createMultipartUpload',
  'uploadPart',
  'uploadPartCopy',
  'completeMultipartUpload',
  'abortMultipartUpload',
  'listParts',
  'listMultipartUploads',
];

describe('PosixBackend operations table', () => {
  it('installs exactly the Backend methods the backend serves', () => {
    const own = BACKEND_METHODS.filter((m) => Object.hasOwn(PosixBackend.prototype, m));
    expect(new Set(own)).toEqual(new Set(SERVED));
    expect(own).toHaveLength(SERVED.length);
  });

  it('calls a context-free operation with its arguments (a bucket configuration kept as text)', async () => {
    const f = await fixture();
    const bucket = await withBucket(f);
    await f.backend.putBucketCors(ctx(), bucket, '<CORSConfiguration/>');
    expect(await f.backend.getBucketCors(ctx(), bucket)).toBe('<CORSConfiguration/>');
    await f.backend.deleteBucketCors(ctx(), bucket);
    await expect(f.backend.getBucketCors(ctx(), bucket)).rejects.toMatchObject({
      code: 'NoSuchCORSConfiguration',
    });
    await f.cleanup();
  });
});
