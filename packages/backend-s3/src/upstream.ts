// The state every operation module shares — the two clients, the optional meta bucket, the
// options — and `call()`, the one place an upstream request is sent with the request's abort
// signal and its failure turned into an S3Error.
import type { S3Client } from '@aws-sdk/client-s3';
import type { BackendMethod, UpstreamOp } from '@vgwrdma/backend-contract';
import { type RequestContext, S3Error } from '@vgwrdma/backend-contract';
import type { MetaBucket } from './meta-bucket.js';
import type { S3BackendOptions } from './options.js';
import type { SpoolConfig } from './spool/spool-config.js';
import type { UploadTagging } from './upload-tagging.js';
import { type ErrorScope, fromUpstream } from './upstream-error.js';

/** An operation of this backend: a Backend method's function of the upstream (see UpstreamOp). */
export type S3Op<M extends BackendMethod> = UpstreamOp<Upstream, M>;

export interface Upstream {
  readonly client: S3Client;
  readonly streamClient: S3Client;
  readonly meta: MetaBucket | undefined;
  readonly options: S3BackendOptions;
  /** How bodies of unknown length are spooled and split (./ops/spooled-put.ts). */
  readonly spool: SpoolConfig;
  /** Tags of CreateMultipartUpload, put on the object at Complete. */
  readonly uploadTagging: UploadTagging;
}

export interface SendOptions {
  abortSignal: AbortSignal;
}

/** Runs one upstream request under the client's abort signal; failures become S3Errors. */
export async function call<T>(
  ctx: RequestContext,
  scope: ErrorScope,
  run: (options: SendOptions) => Promise<T>,
): Promise<T> {
  try {
    return await run({ abortSignal: ctx.signal });
  } catch (err) {
    throw fromUpstream(err, scope);
  }
}

/** The meta bucket is the gateway's own: clients may not address it. */
export function checkBucket(up: Upstream, bucket: string): void {
  if (up.meta !== undefined && bucket === up.meta.bucket) throw new S3Error('AccessDenied');
}
