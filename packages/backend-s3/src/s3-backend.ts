// S3Backend: the Backend contract forwarded to an upstream S3 store (AWS S3, Ceph RGW, MinIO,
// another gateway) with @aws-sdk/client-s3 over one pool of keep-alive connections. Bodies stream
// both ways; upstream errors come back as the same S3Error codes; bucket ACL, policy, CORS and
// website live in an optional meta bucket. The operations are the functions of ./ops, installed by
// name (installUpstreamOps).
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import type { RequestContext as Ctx } from '@vgwrdma/backend-contract';
import { installUpstreamOps, UnsupportedBackend } from '@vgwrdma/backend-contract';
import { VgwrdmaError } from '@vgwrdma/errors';
import { createUpstreamClients, type UpstreamClients } from './client.js';
import { MetaBucket } from './meta-bucket.js';
import * as cfg from './ops/bucket-config.js';
import * as buckets from './ops/buckets.js';
import * as listing from './ops/listing.js';
import * as mp from './ops/multipart.js';
import { getObjectAttributes } from './ops/object-attributes.js';
import * as oc from './ops/object-config.js';
import * as reads from './ops/object-reads.js';
import * as objects from './ops/objects.js';
import type { S3BackendOptions } from './options.js';
import { spoolConfig } from './spool/spool-config.js';
import { UploadTagging } from './upload-tagging.js';
import type { Upstream } from './upstream.js';

/** Start-up failure: the meta bucket named in the options is not there (or not reachable). */
export class MetaBucketMissingError extends VgwrdmaError<'VGW_ERR_S3_META_BUCKET_MISSING'> {
  override readonly name = 'MetaBucketMissingError';
  constructor(
    readonly bucket: string,
    options?: { cause?: unknown },
  ) {
    super(
      'VGW_ERR_S3_META_BUCKET_MISSING',
      `the meta bucket "${bucket}" does not exist upstream (or cannot be reached): create it first`,
      options,
    );
  }
}

export class S3Backend extends UnsupportedBackend {
  override readonly name = 's3';
  private readonly clients: UpstreamClients;
  private readonly up: Upstream;
  private closed = false;

  /** Builds the backend without touching the network; `open()` also checks the meta bucket. */
  constructor(readonly options: S3BackendOptions = {}) {
    super();
    const spool = spoolConfig(options); // a bad size throws before any socket is opened
    this.clients = createUpstreamClients(options);
    const { client, streamClient } = this.clients;
    const meta = options.metaBucket ? new MetaBucket(client, options.metaBucket) : undefined;
    this.up = { client, streamClient, meta, options, spool, uploadTagging: new UploadTagging(meta) };
  }

  /** A backend whose meta bucket (when one is named) is known to exist upstream. */
  static async open(options: S3BackendOptions = {}): Promise<S3Backend> {
    const backend = new S3Backend(options);
    if (options.metaBucket) {
      try {
        await backend.clients.client.send(new HeadBucketCommand({ Bucket: options.metaBucket }));
      } catch (err) {
        await backend.shutdown();
        throw new MetaBucketMissingError(options.metaBucket, { cause: err });
      }
    }
    return backend;
  }

  override async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.clients.destroy();
  }

  // Bucket ACL-like documents kept in the meta bucket, one stored-document kind per method.
  override getBucketPolicy(ctx: Ctx, b: string) {
    return cfg.getStored(this.up, ctx, 'policy', b);
  }
  override putBucketPolicy(ctx: Ctx, b: string, p: string) {
    return cfg.putStored(this.up, ctx, 'policy', b, p);
  }
  override deleteBucketPolicy(ctx: Ctx, b: string) {
    return cfg.deleteStored(this.up, ctx, 'policy', b);
  }
  override getBucketCors(ctx: Ctx, b: string) {
    return cfg.getStored(this.up, ctx, 'cors', b);
  }
  override putBucketCors(ctx: Ctx, b: string, c: string) {
    return cfg.putStored(this.up, ctx, 'cors', b, c);
  }
  override deleteBucketCors(ctx: Ctx, b: string) {
    return cfg.deleteStored(this.up, ctx, 'cors', b);
  }
  override getBucketWebsite(ctx: Ctx, b: string) {
    return cfg.getStored(this.up, ctx, 'website', b);
  }
  override putBucketWebsite(ctx: Ctx, b: string, w: string) {
    return cfg.putStored(this.up, ctx, 'website', b, w);
  }
  override deleteBucketWebsite(ctx: Ctx, b: string) {
    return cfg.deleteStored(this.up, ctx, 'website', b);
  }

  // Every other operation is the ops function of the same name, called with the upstream.
  static {
    installUpstreamOps(S3Backend, (b) => b.up, [
      buckets,
      cfg,
      objects,
      reads,
      oc,
      { getObjectAttributes },
      listing,
      mp,
    ]);
  }
}
