// Every Backend method is reachable over HTTP: one request per method (the Record type makes
// the compiler insist on the full list), each checked to reach exactly that method.
import { BACKEND_METHODS, type BackendMethod, S3Error, UnsupportedBackend } from '@vgwrdma/backend-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ACCESS, ADMIN_SECRET, startGateway, type TestGateway } from './support/harness.js';
import type { RawRequest } from './support/raw-http.js';
import { signedRaw } from './support/signed-raw.js';

/** Records which methods were called; every one answers NotImplemented. */
class RecordingBackend extends UnsupportedBackend {
  readonly calls: string[] = [];
}
for (const m of BACKEND_METHODS) {
  Object.defineProperty(RecordingBackend.prototype, m, {
    value: async function (this: RecordingBackend) {
      this.calls.push(m);
      throw new S3Error('NotImplemented');
    },
  });
}

// Grants go to existing accounts only (others are InvalidArgument before any backend call).
const ACP = `<AccessControlPolicy><Owner><ID>${ADMIN_ACCESS}</ID></Owner><AccessControlList><Grant><Grantee><ID>${ADMIN_ACCESS}</ID></Grantee><Permission>FULL_CONTROL</Permission></Grant></AccessControlList></AccessControlPolicy>`;
const POLICY = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::bkt/*' }],
});
const TAGS = '<Tagging><TagSet><Tag><Key>k</Key><Value>v</Value></Tag></TagSet></Tagging>';
const MD5 = { 'content-md5': '' };
const copy = { 'x-amz-copy-source': '/bkt/src' };

const REQUESTS: Record<BackendMethod, RawRequest> = {
  listBuckets: { path: '/' },
  createBucket: { method: 'PUT', path: '/bkt', body: '' },
  headBucket: { method: 'HEAD', path: '/bkt' },
  deleteBucket: { method: 'DELETE', path: '/bkt' },
  getBucketAcl: { path: '/bkt?acl' },
  putBucketAcl: { method: 'PUT', path: '/bkt?acl', body: ACP },
  getBucketVersioning: { path: '/bkt?versioning' },
  putBucketVersioning: {
    method: 'PUT',
    path: '/bkt?versioning',
    body: '<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>',
  },
  getBucketPolicy: { path: '/bkt?policy' },
  putBucketPolicy: { method: 'PUT', path: '/bkt?policy', body: POLICY },
  deleteBucketPolicy: { method: 'DELETE', path: '/bkt?policy' },
  getBucketOwnershipControls: { path: '/bkt?ownershipControls' },
  putBucketOwnershipControls: {
    method: 'PUT',
    path: '/bkt?ownershipControls',
    body: '<OwnershipControls><Rule><ObjectOwnership>BucketOwnerEnforced</ObjectOwnership></Rule></OwnershipControls>',
  },
  deleteBucketOwnershipControls: { method: 'DELETE', path: '/bkt?ownershipControls' },
  getPublicAccessBlock: { path: '/bkt?publicAccessBlock' },
  putPublicAccessBlock: {
    method: 'PUT',
    path: '/bkt?publicAccessBlock',
    body: '<PublicAccessBlockConfiguration><BlockPublicAcls>true</BlockPublicAcls></PublicAccessBlockConfiguration>',
  },
  deletePublicAccessBlock: { method: 'DELETE', path: '/bkt?publicAccessBlock' },
  getBucketCors: { path: '/bkt?cors' },
  putBucketCors: {
    method: 'PUT',
    path: '/bkt?cors',
    body: '<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>',
  },
  deleteBucketCors: { method: 'DELETE', path: '/bkt?cors' },
  getBucketWebsite: { path: '/bkt?website' },
  putBucketWebsite: {
    method: 'PUT',
    path: '/bkt?website',
    body: '<WebsiteConfiguration><IndexDocument><Suffix>i</Suffix></IndexDocument></WebsiteConfiguration>',
  },
  deleteBucketWebsite: { method: 'DELETE', path: '/bkt?website' },
  getBucketNotification: { path: '/bkt?notification' },
  // Without a webhook target only the empty document reaches the backend (as a delete).
  putBucketNotification: {
    method: 'PUT',
    path: '/bkt?notification',
    body: '<NotificationConfiguration><QueueConfiguration><Queue>arn:aws:sqs:us-east-1:1:q</Queue><Event>s3:ObjectCreated:*</Event></QueueConfiguration></NotificationConfiguration>',
  },
  deleteBucketNotification: {
    method: 'PUT',
    path: '/bkt?notification',
    body: '<NotificationConfiguration/>',
  },
  getBucketTagging: { path: '/bkt?tagging' },
  putBucketTagging: { method: 'PUT', path: '/bkt?tagging', body: TAGS },
  deleteBucketTagging: { method: 'DELETE', path: '/bkt?tagging' },
  getObjectLockConfiguration: { path: '/bkt?object-lock' },
  putObjectLockConfiguration: {
    method: 'PUT',
    path: '/bkt?object-lock',
    body: '<ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>1</Days></DefaultRetention></Rule></ObjectLockConfiguration>',
  },
  putObject: { method: 'PUT', path: '/bkt/k', body: 'data' },
  getObject: { path: '/bkt/k' },
  headObject: { method: 'HEAD', path: '/bkt/k' },
  deleteObject: { method: 'DELETE', path: '/bkt/k' },
  deleteObjects: {
    method: 'POST',
    path: '/bkt?delete',
    body: '<Delete><Object><Key>k</Key></Object></Delete>',
    headers: MD5,
  },
  copyObject: { method: 'PUT', path: '/bkt/k', headers: copy },
  listObjects: { path: '/bkt' },
  listObjectsV2: { path: '/bkt?list-type=2' },
  listObjectVersions: { path: '/bkt?versions' },
  getObjectAttributes: { path: '/bkt/k?attributes', headers: { 'x-amz-object-attributes': 'ETag' } },
  getObjectAcl: { path: '/bkt/k?acl' },
  putObjectAcl: { method: 'PUT', path: '/bkt/k?acl', body: ACP },
  getObjectTagging: { path: '/bkt/k?tagging' },
  putObjectTagging: { method: 'PUT', path: '/bkt/k?tagging', body: TAGS },
  deleteObjectTagging: { method: 'DELETE', path: '/bkt/k?tagging' },
  getObjectRetention: { path: '/bkt/k?retention' },
  putObjectRetention: {
    method: 'PUT',
    path: '/bkt/k?retention',
    body: '<Retention><Mode>GOVERNANCE</Mode><RetainUntilDate>2030-01-01T00:00:00.000Z</RetainUntilDate></Retention>',
  },
  getObjectLegalHold: { path: '/bkt/k?legal-hold' },
  putObjectLegalHold: {
    method: 'PUT',
    path: '/bkt/k?legal-hold',
    body: '<LegalHold><Status>ON</Status></LegalHold>',
  },
  restoreObject: { method: 'POST', path: '/bkt/k?restore', body: '' },
  createMultipartUpload: { method: 'POST', path: '/bkt/k?uploads' },
  uploadPart: { method: 'PUT', path: '/bkt/k?partNumber=1&uploadId=u', body: 'part' },
  uploadPartCopy: { method: 'PUT', path: '/bkt/k?partNumber=1&uploadId=u', headers: copy },
  completeMultipartUpload: {
    method: 'POST',
    path: '/bkt/k?uploadId=u',
    body: '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"e"</ETag></Part></CompleteMultipartUpload>',
  },
  abortMultipartUpload: { method: 'DELETE', path: '/bkt/k?uploadId=u' },
  listParts: { path: '/bkt/k?uploadId=u' },
  listMultipartUploads: { path: '/bkt?uploads' },
  changeBucketOwner: {
    method: 'PATCH',
    path: '/bkt?change-bucket-owner',
    headers: { 'x-vgw-owner': 'someone' },
  },
  listBucketsAndOwners: { method: 'PATCH', path: '/?list-buckets-and-owners' },
};

describe('route table coverage', () => {
  const backend = new RecordingBackend();
  let gw: TestGateway;
  beforeAll(async () => {
    // A webhook target, so a non-empty notification configuration reaches the backend.
    gw = await startGateway(backend, { eventNotifications: { webhookUrl: 'http://127.0.0.1:9/unused' } });
  });
  afterAll(async () => gw.close());

  it.each(BACKEND_METHODS)('routes a request to %s', async (method) => {
    const req = REQUESTS[method];
    if (req.headers === MD5) {
      const { createHash } = await import('node:crypto');
      req.headers = {
        'content-md5': createHash('md5')
          .update(req.body ?? '')
          .digest('base64'),
      };
    }
    backend.calls.length = 0;
    const res = await signedRaw(gw.url, ADMIN_ACCESS, ADMIN_SECRET, req);
    expect(backend.calls).toContain(method);
    expect(res.status).toBe(501);
  });
});
