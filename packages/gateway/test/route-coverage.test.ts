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

/** A request with a method other than GET (and its body, if any). */
const send = (method: string, path: string, body?: string): RawRequest => ({
  method,
  path,
  ...(body === undefined ? {} : { body }),
});
const put = (path: string, body: string) => send('PUT', path, body);
const del = (path: string) => send('DELETE', path);

/** Get<Name> and Put<Name> (sending `body`) on one sub-resource path. */
function readWrite<N extends string>(name: N, path: string, body: string) {
  return { [`get${name}`]: { path }, [`put${name}`]: put(path, body) } as Record<
    `${'get' | 'put'}${N}`,
    RawRequest
  >;
}
/** Get<Name>, Put<Name> and Delete<Name> on one sub-resource path. */
function readWriteDelete<N extends string>(name: N, path: string, body: string) {
  return { ...readWrite(name, path, body), [`delete${name}`]: del(path) } as Record<
    `${'get' | 'put' | 'delete'}${N}`,
    RawRequest
  >;
}

const REQUESTS: Record<BackendMethod, RawRequest> = {
  listBuckets: { path: '/' },
  createBucket: put('/bkt', ''),
  headBucket: send('HEAD', '/bkt'),
  deleteBucket: del('/bkt'),
  ...readWrite('BucketAcl', '/bkt?acl', ACP),
  ...readWrite(
    'BucketVersioning',
    '/bkt?versioning',
    '<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>',
  ),
  ...readWriteDelete('BucketPolicy', '/bkt?policy', POLICY),
  ...readWriteDelete(
    'BucketOwnershipControls',
    '/bkt?ownershipControls',
    '<OwnershipControls><Rule><ObjectOwnership>BucketOwnerEnforced</ObjectOwnership></Rule></OwnershipControls>',
  ),
  ...readWriteDelete(
    'PublicAccessBlock',
    '/bkt?publicAccessBlock',
    '<PublicAccessBlockConfiguration><BlockPublicAcls>true</BlockPublicAcls></PublicAccessBlockConfiguration>',
  ),
  ...readWriteDelete(
    'BucketCors',
    '/bkt?cors',
    '<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>',
  ),
  ...readWriteDelete(
    'BucketWebsite',
    '/bkt?website',
    '<WebsiteConfiguration><IndexDocument><Suffix>i</Suffix></IndexDocument></WebsiteConfiguration>',
  ),
  // Without a webhook target only the empty document reaches the backend (as a delete).
  ...readWrite(
    'BucketNotification',
    '/bkt?notification',
    '<NotificationConfiguration><QueueConfiguration><Queue>arn:aws:sqs:us-east-1:1:q</Queue><Event>s3:ObjectCreated:*</Event></QueueConfiguration></NotificationConfiguration>',
  ),
  deleteBucketNotification: put('/bkt?notification', '<NotificationConfiguration/>'),
  ...readWriteDelete('BucketTagging', '/bkt?tagging', TAGS),
  ...readWrite(
    'ObjectLockConfiguration',
    '/bkt?object-lock',
    '<ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode><Days>1</Days></DefaultRetention></Rule></ObjectLockConfiguration>',
  ),
  putObject: put('/bkt/k', 'data'),
  getObject: { path: '/bkt/k' },
  headObject: send('HEAD', '/bkt/k'),
  deleteObject: del('/bkt/k'),
  deleteObjects: {
    ...send('POST', '/bkt?delete', '<Delete><Object><Key>k</Key></Object></Delete>'),
    headers: MD5,
  },
  copyObject: { method: 'PUT', path: '/bkt/k', headers: copy },
  listObjects: { path: '/bkt' },
  listObjectsV2: { path: '/bkt?list-type=2' },
  listObjectVersions: { path: '/bkt?versions' },
  getObjectAttributes: { path: '/bkt/k?attributes', headers: { 'x-amz-object-attributes': 'ETag' } },
  ...readWrite('ObjectAcl', '/bkt/k?acl', ACP),
  ...readWriteDelete('ObjectTagging', '/bkt/k?tagging', TAGS),
  ...readWrite(
    'ObjectRetention',
    '/bkt/k?retention',
    '<Retention><Mode>GOVERNANCE</Mode><RetainUntilDate>2030-01-01T00:00:00.000Z</RetainUntilDate></Retention>',
  ),
  ...readWrite('ObjectLegalHold', '/bkt/k?legal-hold', '<LegalHold><Status>ON</Status></LegalHold>'),
  restoreObject: send('POST', '/bkt/k?restore', ''),
  createMultipartUpload: send('POST', '/bkt/k?uploads'),
  uploadPart: put('/bkt/k?partNumber=1&uploadId=u', 'part'),
  uploadPartCopy: { method: 'PUT', path: '/bkt/k?partNumber=1&uploadId=u', headers: copy },
  completeMultipartUpload: send(
    'POST',
    '/bkt/k?uploadId=u',
    '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"e"</ETag></Part></CompleteMultipartUpload>',
  ),
  abortMultipartUpload: del('/bkt/k?uploadId=u'),
  listParts: { path: '/bkt/k?uploadId=u' },
  listMultipartUploads: { path: '/bkt?uploads' },
  changeBucketOwner: { ...send('PATCH', '/bkt?change-bucket-owner'), headers: { 'x-vgw-owner': 'someone' } },
  listBucketsAndOwners: send('PATCH', '/?list-buckets-and-owners'),
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
