// An object's attributes as stored (docs/posix-layout.md table) ↔ the typed values of the Backend
// contract. One place encodes them for writing and decodes them for reading, so PUT, copy,
// multipart complete and HEAD cannot disagree about names or formats.
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  CHECKSUM_ALGORITHMS,
  type ChecksumAlgorithm,
  type Checksums,
  type ChecksumType,
  type ContentHeaders,
  type ObjectAttributesInput,
  type ObjectRetention,
  S3Error,
  type TagSet,
  type UserMetadata,
} from '@vgwrdma/backend-contract';
import { ATTR, CONTENT_ATTRS } from './attr-names.js';
import { encodeObjectAcl } from './object-acl.js';
import { getJson, getText, type MetaStore } from './store.js';

/** S3 caps user metadata at 2 KB (keys + values); versitygw does not, we do. */
const MAX_METADATA_BYTES = 2048;
const MAX_OBJECT_TAGS = 10;
/**
 * Content-Type, Content-Disposition, Cache-Control and the other system headers stored with an
 * object, together (values in bytes). AWS has no such cap below its 8 KB header section; here
 * every attribute of an object shares ext4's 4 KiB xattr block with 2 KB of user metadata.
 */
const MAX_CONTENT_HEADER_BYTES = 2048;

/** The `checksums` attribute: versitygw's JSON shape (base64 values by algorithm). */
export interface StoredChecksums extends Checksums {
  Algorithm?: ChecksumAlgorithm;
  Type?: ChecksumType;
}

/** The `mp-metadata` attribute of a completed multipart object. */
interface MpMetadata {
  uploadId: string;
  /** Cumulative sizes: parts[i] is the offset just past part i+1. */
  parts: number[];
}

export type AttrEntries = [attr: string, value: string | Buffer][];

export function checkMetadataSize(metadata: UserMetadata | undefined): void {
  if (!metadata) return;
  let bytes = 0;
  for (const [k, v] of Object.entries(metadata)) bytes += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (bytes > MAX_METADATA_BYTES) throw new S3Error('MetadataTooLarge');
}

export function checkContentHeaders(headers: ContentHeaders): void {
  let bytes = 0;
  for (const field of Object.keys(CONTENT_ATTRS) as (keyof ContentHeaders)[]) {
    const v = headers[field];
    if (v !== undefined) bytes += Buffer.byteLength(v);
  }
  if (bytes > MAX_CONTENT_HEADER_BYTES) {
    throw S3Error.custom(
      'RequestHeaderSectionTooLarge',
      `Your request header section exceeds the maximum allowed size: Content-Type, Content-Disposition, ` +
        `Cache-Control and the other stored system headers may take ${MAX_CONTENT_HEADER_BYTES} bytes together.`,
    );
  }
}

export function checkObjectTags(tags: TagSet | undefined): void {
  if (tags && Object.keys(tags).length > MAX_OBJECT_TAGS) {
    throw S3Error.custom('InvalidTag', 'Object tags cannot be greater than 10');
  }
}

/** The attributes a new object (or upload) is created with, apart from etag and checksums. */
export function creationAttrs(input: ObjectAttributesInput): AttrEntries {
  const out: AttrEntries = [];
  for (const [field, attr] of Object.entries(CONTENT_ATTRS) as [keyof ContentHeaders, string][]) {
    const v = input[field];
    if (v !== undefined && v !== '') out.push([attr, v]);
  }
  if (input.metadata && Object.keys(input.metadata).length > 0)
    out.push([ATTR.metadata, JSON.stringify(input.metadata)]);
  if (input.tagging && Object.keys(input.tagging).length > 0)
    out.push([ATTR.tagging, JSON.stringify(input.tagging)]);
  if (input.retention) out.push([ATTR.retention, JSON.stringify(input.retention)]);
  if (input.legalHold !== undefined) out.push([ATTR.legalHold, legalHoldByte(input.legalHold)]);
  if (input.acl) out.push([ATTR.acl, encodeObjectAcl(input.acl)]);
  return out;
}

export function legalHoldByte(on: boolean): Buffer {
  return Buffer.from([on ? 1 : 0]);
}

export function checksumsAttr(stored: StoredChecksums): [string, string] {
  return [ATTR.checksums, JSON.stringify(stored)];
}

export function encodeMpMetadata(mp: MpMetadata): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(mp)));
}

/** gzip JSON as written; plain JSON is accepted too (docs/posix-layout.md). */
function decodeMpMetadata(raw: Buffer | undefined): MpMetadata | undefined {
  if (!raw || raw.length === 0) return undefined;
  try {
    const text = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
    const v = JSON.parse(text) as Partial<MpMetadata>;
    if (typeof v.uploadId !== 'string' || !Array.isArray(v.parts)) return undefined;
    return { uploadId: v.uploadId, parts: v.parts.map(Number) };
  } catch {
    return undefined;
  }
}

/** Everything stored with an object, decoded. Absent attributes are left out. */
export interface StoredObjectAttrs extends ContentHeaders {
  etag?: string;
  metadata: UserMetadata;
  tagging?: TagSet;
  checksums?: StoredChecksums;
  mp?: MpMetadata;
  retention?: ObjectRetention;
  legalHold?: boolean;
  /** `version-id` (absent: the null version). */
  versionId?: string;
  /** `delete-marker` present: this version is a delete marker. */
  deleteMarker?: boolean;
}

/** Reads an object's attributes; `fd` (an open fd of the object) keeps data and attributes of one inode. */
export async function readObjectAttrs(meta: MetaStore, rel: string, fd?: number): Promise<StoredObjectAttrs> {
  const out: StoredObjectAttrs = { metadata: {} };
  const etag = await getText(meta, rel, ATTR.etag, fd);
  if (etag !== undefined) out.etag = etag;
  for (const [field, attr] of Object.entries(CONTENT_ATTRS) as [keyof ContentHeaders, string][]) {
    const v = await getText(meta, rel, attr, fd);
    if (v !== undefined) out[field] = v;
  }
  out.metadata = (await getJson<UserMetadata>(meta, rel, ATTR.metadata, fd)) ?? {};
  const tagging = await getJson<TagSet>(meta, rel, ATTR.tagging, fd);
  if (tagging) out.tagging = tagging;
  const checksums = await getJson<StoredChecksums>(meta, rel, ATTR.checksums, fd);
  if (checksums) out.checksums = checksums;
  const mp = decodeMpMetadata(await meta.get(rel, ATTR.mpMetadata, fd));
  if (mp) out.mp = mp;
  const retention = await getJson<ObjectRetention>(meta, rel, ATTR.retention, fd);
  if (retention) out.retention = retention;
  const hold = await meta.get(rel, ATTR.legalHold, fd);
  if (hold !== undefined && hold.length > 0) out.legalHold = hold[0] === 1 || hold.toString() === '1';
  const versionId = await getText(meta, rel, ATTR.versionId, fd);
  if (versionId) out.versionId = versionId;
  if ((await meta.get(rel, ATTR.deleteMarker, fd)) !== undefined) out.deleteMarker = true;
  return out;
}

/** The checksum values to answer with: the object's algorithm only, as S3 does. */
export function primaryChecksums(stored: StoredChecksums | undefined): {
  checksums: Checksums;
  type?: ChecksumType;
} {
  if (!stored) return { checksums: {} };
  const alg = stored.Algorithm ?? CHECKSUM_ALGORITHMS.find((a) => stored[a] !== undefined);
  const value = alg ? stored[alg] : undefined;
  const checksums: Checksums = alg && value ? { [alg]: value } : {};
  return stored.Type ? { checksums, type: stored.Type } : { checksums };
}
