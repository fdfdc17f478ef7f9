// The Backend methods PosixBackend serves, as a table of the operation modules' functions of the
// tree (PosixEnv), installed on the class by installUpstreamOps (backend-contract) as
// backend-s3 and backend-azure install theirs. Most operations need only the tree: their functions
// take (env, ...arguments) and the request context is dropped for them (ignoringContext); the few
// that use it (checksums and limits of a body, copy sources) take (env, ctx, ...arguments). The
// compiler checks every entry against its Backend method's signature.
import {
  BACKEND_METHODS,
  type Backend,
  type ObjectOwnership,
  type PublicAccessBlock,
  type RequestContext,
  type UpstreamOps,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from './env.js';
import { listObjectsV1, listObjectsV2, listObjectVersions } from './listing/list-objects.js';
import { completeMultipartUpload } from './multipart/complete.js';
import { listMultipartUploads } from './multipart/list-uploads.js';
import { listParts, uploadPart, uploadPartCopy } from './multipart/parts.js';
import { abortMultipartUpload, createMultipartUpload } from './multipart/uploads.js';
import * as cfg from './ops/bucket-config.js';
import * as buckets from './ops/buckets.js';
import { deleteObject, deleteObjects } from './ops/delete-object.js';
import * as objAcl from './ops/object-acl.js';
import * as sub from './ops/object-subresources.js';
import { copyObject, putObject } from './ops/put-copy.js';
import { getObject, headObject } from './ops/read-object.js';

type Method = (typeof BACKEND_METHODS)[number];
type WithoutContext<P> = P extends [RequestContext, ...infer Rest] ? Rest : never;
/** Backend method M served from the tree alone: (env, the method's arguments after the context). */
type TreeOp<M extends Method> = (
  env: PosixEnv,
  ...args: WithoutContext<Parameters<Backend[M]>>
) => ReturnType<Backend[M]>;
type TreeOps = { readonly [M in Method]?: TreeOp<M> };

/** The Backend methods among `ops`, each called without the request context. */
function ignoringContext(ops: TreeOps): UpstreamOps<PosixEnv> {
  const out: Record<string, unknown> = {};
  for (const method of BACKEND_METHODS) {
    const op = ops[method] as ((env: PosixEnv, ...args: unknown[]) => unknown) | undefined;
    if (op !== undefined)
      out[method] = (env: PosixEnv, _ctx: RequestContext, ...args: unknown[]) => op(env, ...args);
  }
  return out as UpstreamOps<PosixEnv>;
}

/** A bucket configuration kept as one stored text: its get, put and delete. */
function textConfig<V extends string = string>(which: cfg.TextConfig) {
  return {
    get: (env: PosixEnv, bucket: string) => cfg.getTextConfig(env, bucket, which),
    put: (env: PosixEnv, bucket: string, value: V) => cfg.putTextConfig(env, bucket, which, value),
    delete: (env: PosixEnv, bucket: string) => cfg.deleteTextConfig(env, bucket, which),
  };
}
const policy = textConfig('policy');
const cors = textConfig('cors');
const website = textConfig('website');
const ownership = textConfig<ObjectOwnership>('ownership');
const publicAccessBlock = textConfig('publicAccessBlock');

/** Bucket configuration (stored as sent; see the README for what is enforced). */
const BUCKET_CONFIG: TreeOps = {
  getBucketVersioning: cfg.getVersioning,
  putBucketVersioning: cfg.putVersioning,
  getBucketPolicy: policy.get,
  putBucketPolicy: policy.put,
  deleteBucketPolicy: policy.delete,
  getBucketOwnershipControls: cfg.getOwnership,
  putBucketOwnershipControls: ownership.put,
  deleteBucketOwnershipControls: ownership.delete,
  getPublicAccessBlock: cfg.getPublicAccessBlock,
  putPublicAccessBlock: (env, bucket, block: PublicAccessBlock) =>
    publicAccessBlock.put(env, bucket, JSON.stringify(block)),
  deletePublicAccessBlock: publicAccessBlock.delete,
  getBucketCors: cors.get,
  putBucketCors: cors.put,
  deleteBucketCors: cors.delete,
  getBucketWebsite: website.get,
  putBucketWebsite: website.put,
  deleteBucketWebsite: website.delete,
  getBucketNotification: cfg.getNotification,
  putBucketNotification: cfg.putNotification,
  deleteBucketNotification: cfg.deleteNotification,
  getBucketTagging: cfg.getBucketTagging,
  putBucketTagging: cfg.putBucketTagging,
  deleteBucketTagging: cfg.deleteBucketTagging,
  getObjectLockConfiguration: cfg.getLockConfig,
  putObjectLockConfiguration: cfg.putLockConfig,
};

/** Every operation of PosixBackend (the modules whose exports are named as Backend methods go whole). */
export const POSIX_OPS: readonly UpstreamOps<PosixEnv>[] = [
  { putObject, copyObject, uploadPart, uploadPartCopy, completeMultipartUpload },
  ignoringContext(buckets),
  ignoringContext(BUCKET_CONFIG),
  ignoringContext(sub),
  ignoringContext(objAcl),
  ignoringContext({
    getObject,
    headObject,
    deleteObject,
    deleteObjects,
    listObjects: listObjectsV1,
    listObjectsV2,
    listObjectVersions,
    createMultipartUpload,
    abortMultipartUpload,
    listParts,
    listMultipartUploads,
  }),
];
