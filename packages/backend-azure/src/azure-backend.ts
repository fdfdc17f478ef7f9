// AzureBackend: the Backend contract on Azure Blob Storage through the official
// @azure/storage-blob SDK, mapped as versitygw's azure backend maps it — buckets are containers,
// objects block blobs, multipart uploads staged blocks committed by Complete, user metadata and
// checksums in blob metadata, tags as blob index tags, bucket ACLs and policies in container
// metadata. The operations are the functions of ./ops, installed by name (installUpstreamOps).
import type { RequestContext as Ctx, VersioningStatus } from '@vgwrdma/backend-contract';
import { installUpstreamOps, UnsupportedBackend } from '@vgwrdma/backend-contract';
import { VgwrdmaError } from '@vgwrdma/errors';
import { createServiceClient } from './client.js';
import * as cfg from './ops/bucket-config.js';
import * as buckets from './ops/buckets.js';
import * as listing from './ops/listing.js';
import * as mp from './ops/multipart.js';
import * as objects from './ops/objects.js';
import * as tagging from './ops/tagging.js';
import type { AzureBackendOptions } from './options.js';
import type { Upstream } from './upstream.js';

/** Start-up failure: the service could not be reached or refused the credentials. */
export class AzureUnreachableError extends VgwrdmaError<'VGW_ERR_AZURE_UNREACHABLE'> {
  override readonly name = 'AzureUnreachableError';
  constructor(
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(
      'VGW_ERR_AZURE_UNREACHABLE',
      `cannot reach Azure Blob Storage at ${url} with the given credentials`,
      options,
    );
  }
}

export class AzureBackend extends UnsupportedBackend {
  override readonly name = 'azure';
  private readonly up: Upstream;

  /** Builds the backend without touching the network; `open()` also checks the service answers. */
  constructor(readonly options: AzureBackendOptions) {
    super();
    this.up = { service: createServiceClient(options) };
  }

  /** A backend whose service answered one listing with the given credentials. */
  static async open(options: AzureBackendOptions): Promise<AzureBackend> {
    const backend = new AzureBackend(options);
    try {
      await backend.up.service.listContainers().byPage({ maxPageSize: 1 }).next();
    } catch (err) {
      throw new AzureUnreachableError(backend.up.service.url.split('?')[0] ?? '', { cause: err });
    }
    return backend;
  }

  /** Blob Storage keeps no S3 versions: every bucket answers as never versioned. */
  override async getBucketVersioning(ctx: Ctx, b: string): Promise<VersioningStatus | undefined> {
    await buckets.headBucket(this.up, ctx, b);
    return undefined;
  }

  // Every other operation is the ops function of the same name, called with the upstream.
  static {
    installUpstreamOps(AzureBackend, (b) => b.up, [buckets, cfg, objects, tagging, listing, mp]);
  }
}
