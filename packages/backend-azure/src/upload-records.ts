// Where an unfinished multipart upload lives. Its parts are blocks staged on the destination blob
// itself (so Complete is one Put Block List, no copy); what S3 also remembers — the key and the
// attributes given at Create, and each part's ETag, size and checksums — is kept in small hidden
// blobs of the same container: `.vgw-uploads/<uploadId>` (the attributes, as JSON) and
// `.vgw-uploads/<uploadId>/<part>` (empty, the part in its metadata).
import {
  type ChecksumAlgorithm,
  type Checksums,
  type ObjectAttributesInput,
  S3Error,
} from '@vgwrdma/backend-contract';
import { az, isNotFound, toS3Error } from './azure-error.js';
import { decodeJson, encodeJson } from './blob-meta.js';
import { container, UPLOADS_PREFIX, type Upstream } from './upstream.js';

export interface UploadRecord {
  key: string;
  attrs: ObjectAttributesInput;
  checksumAlgorithm?: ChecksumAlgorithm;
}

export interface PartRecord {
  partNumber: number;
  etag: string;
  size: number;
  lastModified: Date;
  /** The checksums the client asked for (returned by ListParts). */
  checksums: Checksums;
  /** CRC64NVME of the part, always kept so Complete can combine the object's. */
  crc64: string;
  /** The staging that holds the part's bytes: its nonce and number of blocks. */
  nonce: string;
  blocks: number;
}

const uploadBlob = (up: Upstream, bucket: string, uploadId: string) =>
  container(up, bucket).getBlockBlobClient(`${UPLOADS_PREFIX}${uploadId}`);
const partBlob = (up: Upstream, bucket: string, uploadId: string, part: number) =>
  container(up, bucket).getBlockBlobClient(`${UPLOADS_PREFIX}${uploadId}/${String(part).padStart(5, '0')}`);

export async function writeUpload(up: Upstream, bucket: string, uploadId: string, record: UploadRecord) {
  const body = Buffer.from(JSON.stringify(record));
  await az(() =>
    uploadBlob(up, bucket, uploadId).upload(body, body.length, {
      metadata: { s3key: encodeJson(record.key) },
    }),
  );
}

/** The upload's record; NoSuchUpload when there is none (or it is for another key). */
export async function readUpload(
  up: Upstream,
  bucket: string,
  uploadId: string,
  key?: string,
): Promise<UploadRecord> {
  if (!/^[0-9a-f]{32}$/.test(uploadId)) throw new S3Error('NoSuchUpload');
  let record: UploadRecord;
  try {
    record = JSON.parse(
      (await uploadBlob(up, bucket, uploadId).downloadToBuffer()).toString(),
    ) as UploadRecord;
  } catch (err) {
    if (!isNotFound(err)) throw toS3Error(err);
    await az(() => container(up, bucket).getProperties());
    throw new S3Error('NoSuchUpload');
  }
  if (key !== undefined && record.key !== key) throw new S3Error('NoSuchUpload');
  return record;
}

export async function writePart(
  up: Upstream,
  bucket: string,
  uploadId: string,
  p: Omit<PartRecord, 'lastModified'>,
) {
  const metadata = {
    etag: p.etag,
    size: String(p.size),
    crc: p.crc64,
    sums: encodeJson(p.checksums),
    blocks: `${p.nonce}:${p.blocks}`,
  };
  await az(() => partBlob(up, bucket, uploadId, p.partNumber).upload(Buffer.alloc(0), 0, { metadata }));
}

/** Every recorded part of the upload, by part number. */
export async function readParts(up: Upstream, bucket: string, uploadId: string): Promise<PartRecord[]> {
  const prefix = `${UPLOADS_PREFIX}${uploadId}/`;
  const out: PartRecord[] = [];
  try {
    for await (const blob of container(up, bucket).listBlobsFlat({ prefix, includeMetadata: true })) {
      const m = blob.metadata ?? {};
      const [nonce = '', blocks = '0'] = (m.blocks ?? '').split(':');
      out.push({
        partNumber: Number(blob.name.slice(prefix.length)),
        etag: m.etag ?? '',
        size: Number(m.size ?? 0),
        lastModified: blob.properties.lastModified,
        checksums: decodeJson<Checksums>(m.sums, {}),
        crc64: m.crc ?? '',
        nonce,
        blocks: Number(blocks),
      });
    }
  } catch (err) {
    throw toS3Error(err);
  }
  return out.sort((a, b) => a.partNumber - b.partNumber);
}

/** Removes the upload's records (its staged blocks are Blob Storage's to drop). */
export async function removeUpload(up: Upstream, bucket: string, uploadId: string): Promise<void> {
  const c = container(up, bucket);
  const names: string[] = [];
  for await (const blob of c.listBlobsFlat({ prefix: `${UPLOADS_PREFIX}${uploadId}/` }))
    names.push(blob.name);
  await Promise.all(names.map((n) => c.getBlockBlobClient(n).deleteIfExists()));
  await uploadBlob(up, bucket, uploadId).deleteIfExists();
}

export interface ListedUploadRecord {
  key: string;
  uploadId: string;
  initiated: Date;
}

export async function listUploadRecords(up: Upstream, bucket: string): Promise<ListedUploadRecord[]> {
  const out: ListedUploadRecord[] = [];
  try {
    for await (const blob of container(up, bucket).listBlobsFlat({
      prefix: UPLOADS_PREFIX,
      includeMetadata: true,
    })) {
      const id = blob.name.slice(UPLOADS_PREFIX.length);
      if (id.includes('/')) continue;
      out.push({
        key: decodeJson<string>(blob.metadata?.s3key, ''),
        uploadId: id,
        initiated: blob.properties.createdOn ?? blob.properties.lastModified,
      });
    }
  } catch (err) {
    throw toS3Error(err);
  }
  return out;
}
