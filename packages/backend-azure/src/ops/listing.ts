// ListObjects (v1, v2) and ListObjectVersions over a flat blob listing: Blob Storage lists names
// from a prefix in order, and this module applies S3's paging to that stream — skip up to the
// marker, roll keys up at the delimiter, stop after maxKeys entries. Blob Storage cannot start a
// listing at an arbitrary name, so a page deep into a large prefix scans the names before it.
import type { BlobItem } from '@azure/storage-blob';
import type {
  ListedObject,
  ListObjectsOutput,
  ListObjectsV1Input,
  ListObjectsV2Input,
  ListPageInput,
  ListPageResult,
} from '@vgwrdma/backend-contract';
import { ListPager, unversionedPage } from '@vgwrdma/backend-contract';
import { toS3Error } from '../azure-error.js';
import { readStored } from '../blob-meta.js';
import { type AzureOp, container, UPLOADS_PREFIX, type Upstream } from '../upstream.js';

/** One page of the bucket's blobs (the multipart staging names left out), paged as S3 pages. */
export async function listPage(
  up: Upstream,
  bucket: string,
  input: ListPageInput,
): Promise<ListPageResult<BlobItem>> {
  const pager = new ListPager<BlobItem>(input);
  const c = container(up, bucket);
  try {
    // Even MaxKeys 0 asks once, so a missing bucket is still NoSuchBucket.
    const prefix = input.prefix;
    const blobs = c.listBlobsFlat({ includeMetadata: true, ...(prefix ? { prefix } : {}) });
    for await (const blob of blobs) {
      if (blob.name.startsWith(UPLOADS_PREFIX)) continue;
      if (!pager.offer(blob.name, blob)) break;
    }
  } catch (err) {
    throw toS3Error(err);
  }
  return pager.page;
}

function listed(blob: BlobItem): ListedObject {
  return {
    key: blob.name,
    lastModified: blob.properties.lastModified,
    etag: readStored({ metadata: blob.metadata ?? {}, etag: blob.properties.etag ?? '' }).etag,
    size: blob.properties.contentLength ?? 0,
    storageClass: 'STANDARD',
  };
}

async function list(
  up: Upstream,
  input: ListObjectsV1Input | ListObjectsV2Input,
  after: string | undefined,
): Promise<ListObjectsOutput> {
  const page = await listPage(up, input.bucket, {
    prefix: input.prefix,
    delimiter: input.delimiter,
    after,
    maxKeys: input.maxKeys,
  });
  const out: ListObjectsOutput = {
    contents: page.items.map(listed),
    commonPrefixes: page.commonPrefixes,
    isTruncated: page.isTruncated,
  };
  if (page.isTruncated && page.last !== undefined) out.nextContinuationToken = page.last;
  return out;
}

export const listObjects: AzureOp<'listObjects'> = async (up, _ctx, input) => {
  const out = await list(up, input, input.marker);
  if (out.isTruncated && out.nextContinuationToken !== undefined) out.nextMarker = out.nextContinuationToken;
  delete out.nextContinuationToken;
  return out;
};

export const listObjectsV2: AzureOp<'listObjectsV2'> = async (up, _ctx, input) => {
  const after =
    input.continuationToken !== undefined ? decodeToken(input.continuationToken) : input.startAfter;
  const out = await list(up, input, after);
  if (out.nextContinuationToken !== undefined)
    out.nextContinuationToken = encodeToken(out.nextContinuationToken);
  return out;
};

/** Blob Storage keeps no S3 versions here: every object is its one "null" version. */
export const listObjectVersions: AzureOp<'listObjectVersions'> = async (up, _ctx, input) => {
  const page = await listPage(up, input.bucket, { ...input, after: input.keyMarker });
  return unversionedPage(page, page.items.map(listed));
};

// Continuation tokens are opaque to clients; base64url of the last key keeps them so.
const encodeToken = (last: string) => Buffer.from(last).toString('base64url');
const decodeToken = (token: string) => Buffer.from(token, 'base64url').toString();
