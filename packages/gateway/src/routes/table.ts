// The route table: one row per S3 operation, as data. A row says which request it serves
// (method + target + sub-resource + selector header), what it is (the policy action), how the
// router prepares it (flags), and who answers it (handler). The matcher in match.ts reads it.
import * as bucket from '../handlers/bucket.js';
import * as config from '../handlers/bucket-config.js';
import { copyObject } from '../handlers/copy-object.js';
import * as listing from '../handlers/listing.js';
import * as mp from '../handlers/multipart.js';
import * as notification from '../handlers/notification.js';
import * as objcfg from '../handlers/object-config.js';
import { getObject } from '../handlers/object-read.js';
import * as write from '../handlers/object-write.js';
import * as pab from '../handlers/public-access.js';
import * as refuse from '../handlers/refusals.js';
import * as tagging from '../handlers/tagging.js';
import { postObject } from '../post-object/post-object.js';
import type { RouteFlags, RouteRow } from './types.js';

const W: RouteFlags = { write: true };
const WX: RouteFlags = { write: true, body: 'xml' };
const WS: RouteFlags = { write: true, body: 'stream' };

// biome-ignore format: a table reads best one row per line
export const ROUTES: readonly RouteRow[] = [
  // Service
  { method: 'GET', target: 'service', operation: 'ListBuckets', action: 's3:ListAllMyBuckets', handler: bucket.listBuckets },
  { method: 'PATCH', target: 'service', subresource: 'list-buckets-and-owners', operation: 'ListBucketsAndOwners', action: 'admin:ListBuckets', handler: bucket.listBucketsAndOwners, flags: { admin: true } },

  // Bucket
  { method: 'PUT', target: 'bucket', operation: 'CreateBucket', action: 's3:CreateBucket', handler: bucket.createBucket, flags: WX },
  { method: 'HEAD', target: 'bucket', operation: 'HeadBucket', action: 's3:ListBucket', handler: bucket.headBucket },
  { method: 'DELETE', target: 'bucket', operation: 'DeleteBucket', action: 's3:DeleteBucket', handler: bucket.deleteBucket, flags: W },
  { method: 'GET', target: 'bucket', operation: 'ListObjects', action: 's3:ListBucket', handler: listing.listObjectsV1 },
  { method: 'GET', target: 'bucket', subresource: 'list-type', operation: 'ListObjectsV2', action: 's3:ListBucket', handler: listing.listObjectsV2 },
  { method: 'GET', target: 'bucket', subresource: 'versions', operation: 'ListObjectVersions', action: 's3:ListBucketVersions', handler: listing.listObjectVersions },
  { method: 'GET', target: 'bucket', subresource: 'uploads', operation: 'ListMultipartUploads', action: 's3:ListBucketMultipartUploads', handler: mp.listMultipartUploads },
  { method: 'GET', target: 'bucket', subresource: 'location', operation: 'GetBucketLocation', action: 's3:GetBucketLocation', handler: bucket.getBucketLocation },
  { method: 'POST', target: 'bucket', operation: 'PostObject', action: 's3:PutObject', handler: postObject, flags: { write: true, form: true } },
  { method: 'POST', target: 'bucket', subresource: 'delete', operation: 'DeleteObjects', action: 's3:DeleteObject', handler: write.deleteObjects, flags: WX },
  { method: 'PATCH', target: 'bucket', subresource: 'change-bucket-owner', operation: 'ChangeBucketOwner', action: 'admin:ChangeBucketOwner', handler: bucket.changeBucketOwner, flags: { write: true, admin: true } },

  { method: 'GET', target: 'bucket', subresource: 'tagging', operation: 'GetBucketTagging', action: 's3:GetBucketTagging', handler: tagging.getBucketTagging },
  { method: 'PUT', target: 'bucket', subresource: 'tagging', operation: 'PutBucketTagging', action: 's3:PutBucketTagging', handler: tagging.putBucketTagging, flags: WX },
  { method: 'DELETE', target: 'bucket', subresource: 'tagging', operation: 'DeleteBucketTagging', action: 's3:PutBucketTagging', handler: tagging.deleteBucketTagging, flags: W },
  { method: 'GET', target: 'bucket', subresource: 'acl', operation: 'GetBucketAcl', action: 's3:GetBucketAcl', handler: config.getBucketAcl },
  { method: 'PUT', target: 'bucket', subresource: 'acl', operation: 'PutBucketAcl', action: 's3:PutBucketAcl', handler: config.putBucketAcl, flags: WX },
  { method: 'GET', target: 'bucket', subresource: 'versioning', operation: 'GetBucketVersioning', action: 's3:GetBucketVersioning', handler: config.getBucketVersioning },
  { method: 'PUT', target: 'bucket', subresource: 'versioning', operation: 'PutBucketVersioning', action: 's3:PutBucketVersioning', handler: config.putBucketVersioning, flags: WX },
  { method: 'GET', target: 'bucket', subresource: 'policy', operation: 'GetBucketPolicy', action: 's3:GetBucketPolicy', handler: config.getBucketPolicy },
  { method: 'PUT', target: 'bucket', subresource: 'policy', operation: 'PutBucketPolicy', action: 's3:PutBucketPolicy', handler: config.putBucketPolicy, flags: WX },
  { method: 'DELETE', target: 'bucket', subresource: 'policy', operation: 'DeleteBucketPolicy', action: 's3:DeleteBucketPolicy', handler: config.deleteBucketPolicy, flags: W },
  { method: 'GET', target: 'bucket', subresource: 'policyStatus', operation: 'GetBucketPolicyStatus', action: 's3:GetBucketPolicyStatus', handler: pab.getBucketPolicyStatus },
  { method: 'GET', target: 'bucket', subresource: 'publicAccessBlock', operation: 'GetPublicAccessBlock', action: 's3:GetBucketPublicAccessBlock', handler: pab.getPublicAccessBlock },
  { method: 'PUT', target: 'bucket', subresource: 'publicAccessBlock', operation: 'PutPublicAccessBlock', action: 's3:PutBucketPublicAccessBlock', handler: pab.putPublicAccessBlock, flags: WX },
  { method: 'DELETE', target: 'bucket', subresource: 'publicAccessBlock', operation: 'DeletePublicAccessBlock', action: 's3:PutBucketPublicAccessBlock', handler: pab.deletePublicAccessBlock, flags: W },
  { method: 'GET', target: 'bucket', subresource: 'cors', operation: 'GetBucketCors', action: 's3:GetBucketCORS', handler: config.getBucketCors },
  { method: 'PUT', target: 'bucket', subresource: 'cors', operation: 'PutBucketCors', action: 's3:PutBucketCORS', handler: config.putBucketCors, flags: WX },
  { method: 'DELETE', target: 'bucket', subresource: 'cors', operation: 'DeleteBucketCors', action: 's3:PutBucketCORS', handler: config.deleteBucketCors, flags: W },
  { method: 'GET', target: 'bucket', subresource: 'website', operation: 'GetBucketWebsite', action: 's3:GetBucketWebsite', handler: config.getBucketWebsite },
  { method: 'PUT', target: 'bucket', subresource: 'website', operation: 'PutBucketWebsite', action: 's3:PutBucketWebsite', handler: config.putBucketWebsite, flags: WX },
  { method: 'DELETE', target: 'bucket', subresource: 'website', operation: 'DeleteBucketWebsite', action: 's3:DeleteBucketWebsite', handler: config.deleteBucketWebsite, flags: W },
  { method: 'GET', target: 'bucket', subresource: 'ownershipControls', operation: 'GetBucketOwnershipControls', action: 's3:GetBucketOwnershipControls', handler: config.getBucketOwnershipControls },
  { method: 'PUT', target: 'bucket', subresource: 'ownershipControls', operation: 'PutBucketOwnershipControls', action: 's3:PutBucketOwnershipControls', handler: config.putBucketOwnershipControls, flags: WX },
  { method: 'DELETE', target: 'bucket', subresource: 'ownershipControls', operation: 'DeleteBucketOwnershipControls', action: 's3:PutBucketOwnershipControls', handler: config.deleteBucketOwnershipControls, flags: W },
  { method: 'GET', target: 'bucket', subresource: 'notification', operation: 'GetBucketNotificationConfiguration', action: 's3:GetBucketNotification', handler: notification.getBucketNotification },
  { method: 'PUT', target: 'bucket', subresource: 'notification', operation: 'PutBucketNotificationConfiguration', action: 's3:PutBucketNotification', handler: notification.putBucketNotification, flags: WX },
  { method: 'GET', target: 'bucket', subresource: 'object-lock', operation: 'GetObjectLockConfiguration', action: 's3:GetBucketObjectLockConfiguration', handler: config.getObjectLockConfiguration },
  { method: 'PUT', target: 'bucket', subresource: 'object-lock', operation: 'PutObjectLockConfiguration', action: 's3:PutBucketObjectLockConfiguration', handler: config.putObjectLockConfiguration, flags: WX },

  // Object: data
  { method: 'GET', target: 'object', operation: 'GetObject', action: 's3:GetObject', handler: getObject },
  { method: 'HEAD', target: 'object', operation: 'HeadObject', action: 's3:GetObject', handler: getObject },
  { method: 'PUT', target: 'object', header: 'x-amz-copy-source', operation: 'CopyObject', action: 's3:PutObject', handler: copyObject, flags: W },
  { method: 'PUT', target: 'object', operation: 'PutObject', action: 's3:PutObject', handler: write.putObject, flags: WS },
  { method: 'DELETE', target: 'object', operation: 'DeleteObject', action: 's3:DeleteObject', handler: write.deleteObject, flags: W },
  { method: 'GET', target: 'object', subresource: 'attributes', operation: 'GetObjectAttributes', action: 's3:GetObjectAttributes', handler: objcfg.getObjectAttributes },
  { method: 'POST', target: 'object', subresource: 'restore', operation: 'RestoreObject', action: 's3:RestoreObject', handler: objcfg.restoreObject, flags: WX },

  // Object: multipart
  { method: 'POST', target: 'object', subresource: 'uploads', operation: 'CreateMultipartUpload', action: 's3:PutObject', handler: mp.createMultipartUpload, flags: W },
  { method: 'PUT', target: 'object', subresource: 'uploadId', header: 'x-amz-copy-source', operation: 'UploadPartCopy', action: 's3:PutObject', handler: mp.uploadPartCopy, flags: W },
  { method: 'PUT', target: 'object', subresource: 'uploadId', operation: 'UploadPart', action: 's3:PutObject', handler: mp.uploadPart, flags: WS },
  { method: 'POST', target: 'object', subresource: 'uploadId', operation: 'CompleteMultipartUpload', action: 's3:PutObject', handler: mp.completeMultipartUpload, flags: WX },
  { method: 'DELETE', target: 'object', subresource: 'uploadId', operation: 'AbortMultipartUpload', action: 's3:AbortMultipartUpload', handler: mp.abortMultipartUpload, flags: W },
  { method: 'GET', target: 'object', subresource: 'uploadId', operation: 'ListParts', action: 's3:ListMultipartUploadParts', handler: mp.listParts },

  // Object: sub-resources
  { method: 'GET', target: 'object', subresource: 'tagging', operation: 'GetObjectTagging', action: 's3:GetObjectTagging', handler: tagging.getObjectTagging },
  { method: 'PUT', target: 'object', subresource: 'tagging', operation: 'PutObjectTagging', action: 's3:PutObjectTagging', handler: tagging.putObjectTagging, flags: WX },
  { method: 'DELETE', target: 'object', subresource: 'tagging', operation: 'DeleteObjectTagging', action: 's3:DeleteObjectTagging', handler: tagging.deleteObjectTagging, flags: W },
  { method: 'GET', target: 'object', subresource: 'acl', operation: 'GetObjectAcl', action: 's3:GetObjectAcl', handler: objcfg.getObjectAcl },
  { method: 'PUT', target: 'object', subresource: 'acl', operation: 'PutObjectAcl', action: 's3:PutObjectAcl', handler: objcfg.putObjectAcl, flags: WX },
  { method: 'GET', target: 'object', subresource: 'retention', operation: 'GetObjectRetention', action: 's3:GetObjectRetention', handler: objcfg.getObjectRetention },
  { method: 'PUT', target: 'object', subresource: 'retention', operation: 'PutObjectRetention', action: 's3:PutObjectRetention', handler: objcfg.putObjectRetention, flags: WX },
  { method: 'GET', target: 'object', subresource: 'legal-hold', operation: 'GetObjectLegalHold', action: 's3:GetObjectLegalHold', handler: objcfg.getObjectLegalHold },
  { method: 'PUT', target: 'object', subresource: 'legal-hold', operation: 'PutObjectLegalHold', action: 's3:PutObjectLegalHold', handler: objcfg.putObjectLegalHold, flags: WX },

  // Combinations S3 refuses with a specific message.
  { method: 'GET', target: 'object', subresource: 'versions', operation: 'ListObjectVersions', action: 's3:ListBucketVersions', handler: refuse.versionsOnKey },
  { method: 'GET', target: 'object', subresource: 'uploads', operation: 'ListMultipartUploads', action: 's3:ListBucketMultipartUploads', handler: refuse.uploadsOnKey },
  { method: 'GET', target: 'object', subresource: 'torrent', operation: 'GetObjectTorrent', action: 's3:GetObject', handler: refuse.torrent },
];
