// Objects are block blobs. PutObject streams through block-writer (nothing visible until the body
// is checked), with the S3 ETag, user metadata and checksums in the blob's metadata, tags as blob
// index tags, and conditional writes made atomic with Azure's own If-Match on the blob it read.
// HEAD/GET read the blob's properties; a GET then downloads with If-Match on that same blob, so
// a concurrent overwrite cannot mix two objects' bytes and headers.
import { Readable } from 'node:stream';
import type { BlobGetPropertiesResponse, BlockBlobClient } from '@azure/storage-blob';
import {
  checkConditions,
  checkNotCopyToItself,
  type DeleteObjectsOutput,
  type GetObjectOutput,
  type HeadObjectInput,
  type HeadObjectOutput,
  type ObjectAttributesInput,
  type PutObjectOutput,
  type ResolvedRange,
  resolveRange,
  S3Error,
} from '@vgwrdma/backend-contract';
import { az, isNotFound, toS3Error } from '../azure-error.js';
import { httpHeaders, objectMetadata, readStored, type StoredObject } from '../blob-meta.js';
import { PUT_UPLOAD, partOfBlock } from '../block-ids.js';
import { stageBody } from '../block-writer.js';
import { type AzureOp, blockBlob, checkKey, checkMetadata, container, type Upstream } from '../upstream.js';

/** The blob's properties, or NoSuchKey / NoSuchBucket. */
export async function blobProps(
  up: Upstream,
  bucket: string,
  key: string,
): Promise<BlobGetPropertiesResponse> {
  const blob = blockBlob(up, bucket, key);
  try {
    return await blob.getProperties();
  } catch (err) {
    if (isNotFound(err)) {
      // Blob Storage answers 404 alike for a missing blob and a missing container.
      await az(() => container(up, bucket).getProperties());
      throw new S3Error('NoSuchKey', undefined, { detail: { Key: key } });
    }
    throw toS3Error(err);
  }
}

/** Content headers of an S3 write, and nothing else. */
export function pickHeaders(input: ObjectAttributesInput): StoredObject['headers'] {
  const { contentType, contentEncoding, contentLanguage, contentDisposition, cacheControl } = input;
  const { expires, websiteRedirectLocation } = input;
  const all = {
    contentType,
    contentEncoding,
    contentLanguage,
    contentDisposition,
    cacheControl,
    expires,
    websiteRedirectLocation,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}

export const putObject: AzureOp<'putObject'> = async (up, _ctx, input) => {
  checkKey(input.key);
  checkMetadata(input.metadata);
  const blob = blockBlob(up, input.bucket, input.key);
  // The bucket must exist before any bytes are read: staging into a missing container fails late.
  if (input.ifMatch === undefined && input.ifNoneMatch === undefined) {
    await az(() => container(up, input.bucket).getProperties());
  }
  const conditions = await writeConditions(up, input);
  const staged = await stageBody({ blob, uploadId: PUT_UPLOAD, part: 0 }, input.body, {
    checksum: input.checksum,
    contentMD5: input.contentMD5,
    contentLength: input.contentLength,
  });
  const d = staged.digest;
  const stored: StoredObject = {
    etag: d.etag,
    metadata: { ...input.metadata },
    checksums: d.checksums,
    headers: pickHeaders(input),
    ...(d.checksumType ? { checksumType: d.checksumType } : {}),
  };
  await commit(blob, staged, stored, input.tagging, conditions);
  const out: PutObjectOutput = { etag: d.etag, size: d.size, checksums: d.checksums };
  if (d.checksumType) out.checksumType = d.checksumType;
  return out;
};

/** Azure conditions that make an S3 conditional write atomic. */
async function writeConditions(
  up: Upstream,
  input: { bucket: string; key: string; ifMatch?: string; ifNoneMatch?: string },
): Promise<{ ifMatch?: string; ifNoneMatch?: string }> {
  if (input.ifMatch !== undefined) {
    const props = await blobProps(up, input.bucket, input.key);
    checkConditions({ ifMatch: input.ifMatch }, targetOf(props), false);
    return { ifMatch: props.etag as string };
  }
  if (input.ifNoneMatch !== undefined) {
    try {
      const props = await blockBlob(up, input.bucket, input.key).getProperties();
      checkConditions({ ifNoneMatch: input.ifNoneMatch }, targetOf(props), false);
      return { ifMatch: props.etag as string };
    } catch (err) {
      if (!isNotFound(err)) throw toS3Error(err);
      await az(() => container(up, input.bucket).getProperties());
      return { ifNoneMatch: '*' };
    }
  }
  return {};
}

/** Makes the staged body the blob's content, with the object's metadata, headers and tags. */
export async function commit(
  blob: BlockBlobClient,
  staged: { single?: Buffer | undefined; blockIds: string[] },
  stored: StoredObject,
  tags: Record<string, string> | undefined,
  conditions: { ifMatch?: string; ifNoneMatch?: string } = {},
  upload?: string,
): Promise<void> {
  const options = {
    metadata: objectMetadata(stored, upload),
    blobHTTPHeaders: httpHeaders(stored.headers),
    conditions,
    ...(tags && Object.keys(tags).length > 0 ? { tags } : {}),
  };
  if (staged.single) {
    const bytes = staged.single;
    await az(() => blob.upload(bytes, bytes.length, options));
  } else {
    await az(() => blob.commitBlockList(staged.blockIds, options));
  }
}

function targetOf(props: BlobGetPropertiesResponse) {
  return { etag: readStored(props).etag, lastModified: props.lastModified ?? new Date(0) };
}

export const headObject: AzureOp<'headObject'> = async (up, _ctx, input) => {
  checkKey(input.key);
  const props = await blobProps(up, input.bucket, input.key);
  return headOf(up, input, props);
};

async function headOf(
  up: Upstream,
  input: HeadObjectInput,
  props: BlobGetPropertiesResponse,
): Promise<HeadObjectOutput> {
  const stored = readStored(props);
  const lastModified = props.lastModified ?? new Date(0);
  checkConditions(input.conditions, { etag: stored.etag, lastModified }, true);
  const size = props.contentLength ?? 0;
  const out: HeadObjectOutput = {
    ...stored.headers,
    key: input.key,
    etag: stored.etag,
    size,
    lastModified,
    metadata: stored.metadata,
    storageClass: 'STANDARD',
  };
  if (stored.partsCount !== undefined) out.partsCount = stored.partsCount;
  if (props.tagCount) out.tagCount = props.tagCount;
  if (input.checksumMode) {
    out.checksums = { ...stored.checksums };
    if (stored.checksumType) out.checksumType = stored.checksumType;
  }
  const range = await selectRange(up, input, size, stored);
  if (range) out.range = range;
  return out;
}

/** The bytes a Range header or a partNumber selects; undefined for the whole object. */
async function selectRange(
  up: Upstream,
  input: HeadObjectInput,
  size: number,
  stored: StoredObject,
): Promise<ResolvedRange | undefined> {
  if (input.range && input.partNumber !== undefined) {
    throw new S3Error('InvalidRequest', 'Cannot specify both Range header and partNumber query parameter');
  }
  if (input.range) return resolveRange(input.range, size);
  if (input.partNumber === undefined) return undefined;
  const sizes = stored.partsCount === undefined ? [size] : await partSizes(up, input.bucket, input.key);
  if (input.partNumber < 1 || input.partNumber > sizes.length) throw new S3Error('InvalidPartNumber');
  const start = sizes.slice(0, input.partNumber - 1).reduce((a, b) => a + b, 0);
  return { start, end: start + (sizes[input.partNumber - 1] as number) - 1, size };
}

/** Part sizes of a multipart object, from its committed blocks (their ids carry the part number). */
async function partSizes(up: Upstream, bucket: string, key: string): Promise<number[]> {
  const list = await az(() => blockBlob(up, bucket, key).getBlockList('committed'));
  const sizes: number[] = [];
  let current = Number.NaN;
  for (const block of list.committedBlocks ?? []) {
    const part = partOfBlock(block.name);
    if (part !== current) {
      sizes.push(0);
      current = part;
    }
    sizes[sizes.length - 1] = (sizes.at(-1) ?? 0) + block.size;
  }
  return sizes;
}

export const getObject: AzureOp<'getObject'> = async (up, _ctx, input) => {
  checkKey(input.key);
  const props = await blobProps(up, input.bucket, input.key);
  const head = await headOf(up, input, props);
  const blob = blockBlob(up, input.bucket, input.key);
  const offset = head.range?.start ?? 0;
  const count = head.range ? head.range.end - head.range.start + 1 : undefined;
  if (head.size === 0) return { ...head, body: emptyBody() };
  const res = await az(() =>
    blob.download(offset, count, { conditions: { ifMatch: props.etag as string }, maxRetryRequests: 3 }),
  );
  const body = res.readableStreamBody;
  if (!body) throw new Error('azure backend: download answered no body');
  return { ...head, body: body as GetObjectOutput['body'] };
};

function emptyBody(): GetObjectOutput['body'] {
  return Readable.from([]);
}

export const deleteObject: AzureOp<'deleteObject'> = async (up, _ctx, input) => {
  checkKey(input.key);
  const blob = blockBlob(up, input.bucket, input.key);
  const conditions: { ifMatch?: string } = {};
  if (input.ifMatch !== undefined) {
    const props = await blobProps(up, input.bucket, input.key);
    checkConditions({ ifMatch: input.ifMatch }, targetOf(props), false);
    conditions.ifMatch = props.etag as string;
  }
  try {
    await blob.delete({ conditions });
  } catch (err) {
    if (!isNotFound(err)) throw toS3Error(err);
    // Deleting a missing key succeeds, as S3's does; a missing bucket does not.
    await az(() => container(up, input.bucket).getProperties());
  }
  return {};
};

export const deleteObjects: AzureOp<'deleteObjects'> = async (up, ctx, input) => {
  await az(() => container(up, input.bucket).getProperties());
  const out: DeleteObjectsOutput = { deleted: [], errors: [] };
  for (const { key } of input.objects) {
    try {
      await deleteObject(up, ctx, { bucket: input.bucket, key });
      out.deleted.push({ key });
    } catch (err) {
      const e = err as S3Error;
      if (e?.name !== 'S3Error') throw err;
      out.errors.push({ key, code: e.code, message: e.message });
    }
  }
  return out;
};

export const copyObject: AzureOp<'copyObject'> = async (up, ctx, input) => {
  checkKey(input.key);
  const replace = input.metadataDirective === 'REPLACE';
  checkNotCopyToItself(input);
  if (replace) checkMetadata(input.metadata);
  // The copy streams through the gateway (download, then the PutObject path): its ETag is the MD5
  // of the bytes, as S3's is for a copy of a multipart object, and the checksums are recomputed.
  const src = await getObject(up, ctx, {
    bucket: input.source.bucket,
    key: input.source.key,
    checksumMode: true,
  });
  try {
    checkConditions(input.source.conditions, src, false);
  } catch (err) {
    src.body.destroy();
    throw err;
  }
  await az(() => container(up, input.bucket).getProperties()).catch((err) => {
    src.body.destroy();
    throw err;
  });
  const tags =
    input.taggingDirective === 'REPLACE'
      ? input.tagging
      : await az(() => blockBlob(up, input.source.bucket, input.source.key).getTags()).then((t) => t.tags);
  const attrs: ObjectAttributesInput = replace ? input : { ...src, metadata: src.metadata };
  const algorithm =
    input.checksumAlgorithm ?? (Object.keys(src.checksums ?? {})[0] as typeof input.checksumAlgorithm);
  const put = await putObject(up, ctx, {
    ...pickHeaders(attrs),
    bucket: input.bucket,
    key: input.key,
    body: src.body,
    contentLength: src.size,
    metadata: { ...(replace ? input.metadata : src.metadata) },
    ...(tags ? { tagging: tags } : {}),
    ...(algorithm ? { checksum: { algorithm } } : {}),
  });
  const props = await blobProps(up, input.bucket, input.key);
  return { etag: put.etag, lastModified: props.lastModified ?? new Date(), checksums: put.checksums };
};
