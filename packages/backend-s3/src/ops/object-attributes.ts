// GetObjectAttributes, composed here from HeadObject rather than forwarded: Ceph RGW 16.2 has no
// GetObjectAttributes (with a versionId it answers the object's bytes, without one a 500), and a
// HEAD answers the same facts on every upstream. ETag, size, storage class and checksums come from
// one HEAD (checksum mode on); ObjectParts, for multipart objects only, from a HEAD of part 1 (the
// parts count) and one HEAD per part of the page asked for (its size and checksums). Where the
// upstream ignores partNumber (RGW 16.2), the count comes from the ETag and no parts are listed.
import type {
  GetObjectAttributesInput,
  GetObjectAttributesOutput,
  HeadObjectOutput,
} from '@vgwrdma/backend-contract';
import { normalizeETag } from '@vgwrdma/backend-contract';
import type { S3Op } from '../upstream.js';
import { headObject } from './object-reads.js';

const DEFAULT_MAX_PARTS = 1000;
/** Part HEADs sent at once for an ObjectParts page. */
const PART_HEADS_AT_ONCE = 8;

type Parts = NonNullable<GetObjectAttributesOutput['parts']>;

export const getObjectAttributes: S3Op<'getObjectAttributes'> = async (up, ctx, input) => {
  const want = new Set(input.attributes);
  const object = {
    bucket: input.bucket,
    key: input.key,
    ...(input.versionId ? { versionId: input.versionId } : {}),
  };
  const head = await headObject(up, ctx, { ...object, checksumMode: true });
  const out: GetObjectAttributesOutput = { lastModified: head.lastModified };
  if (head.versionId !== undefined) out.versionId = head.versionId;
  // GetObjectAttributes answers the ETag unquoted, unlike HEAD.
  if (want.has('ETag')) out.etag = normalizeETag(head.etag);
  if (want.has('ObjectSize')) out.size = head.size;
  if (want.has('StorageClass')) out.storageClass = head.storageClass ?? 'STANDARD';
  if (want.has('Checksum') && head.checksums) {
    out.checksums = head.checksums;
    if (head.checksumType) out.checksumType = head.checksumType;
  }
  if (want.has('ObjectParts')) {
    const parts = await objectParts(input, (partNumber) =>
      headObject(up, ctx, { ...object, partNumber, checksumMode: true }),
    );
    if (parts) out.parts = parts;
  }
  return out;
};

/** The ObjectParts page, or undefined for an object that was not uploaded in parts. */
async function objectParts(
  input: GetObjectAttributesInput,
  headPart: (partNumber: number) => Promise<HeadObjectOutput>,
): Promise<Parts | undefined> {
  const firstPart = await headPart(1);
  // An upstream that ignores partNumber (Ceph RGW 16.2) answers the whole object: then only the
  // ETag's `-<parts>` suffix tells the count, and the parts' sizes are not known.
  const honoured = firstPart.range !== undefined || firstPart.partsCount !== undefined;
  const total = firstPart.partsCount ?? etagPartsCount(firstPart.etag);
  if (total === undefined || total < 1) return undefined;
  if (!honoured) {
    return {
      totalPartsCount: total,
      partNumberMarker: input.partNumberMarker ?? 0,
      maxParts: input.maxParts ?? DEFAULT_MAX_PARTS,
      isTruncated: false,
      parts: [],
    };
  }
  const maxParts = input.maxParts ?? DEFAULT_MAX_PARTS;
  const marker = input.partNumberMarker ?? 0;
  const numbers: number[] = [];
  for (let n = marker + 1; n <= total && numbers.length < maxParts; n++) numbers.push(n);
  const heads: HeadObjectOutput[] = [];
  for (let i = 0; i < numbers.length; i += PART_HEADS_AT_ONCE) {
    const batch = numbers.slice(i, i + PART_HEADS_AT_ONCE);
    heads.push(...(await Promise.all(batch.map((n) => (n === 1 ? firstPart : headPart(n))))));
  }
  const parts = heads.map((h, i) => ({
    partNumber: numbers[i] as number,
    size: h.range ? h.range.end - h.range.start + 1 : h.size,
    ...(h.checksums ? { checksums: h.checksums } : {}),
  }));
  const last = numbers[numbers.length - 1];
  const isTruncated = last !== undefined && last < total;
  return {
    totalPartsCount: total,
    partNumberMarker: marker,
    maxParts,
    isTruncated,
    parts,
    ...(isTruncated ? { nextPartNumberMarker: last } : {}),
  };
}

/** `"<hex>-<n>"` → n: the parts count a multipart ETag carries. */
function etagPartsCount(etag: string): number | undefined {
  const m = /-(\d+)"?$/.exec(etag);
  return m ? Number(m[1]) : undefined;
}
