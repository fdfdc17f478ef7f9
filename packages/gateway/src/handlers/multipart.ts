// Multipart uploads: create, upload part (and part copy), complete, abort, list parts, list
// uploads.

import {
  type Checksums,
  type CompleteMultipartUploadInput,
  checkChecksumType,
  type Owner,
  parseCompleteChecksumValue,
  S3Error,
} from '@vgwrdma/backend-contract';
import {
  checksumRequest,
  parseChecksumAlgorithmHeader,
  parseChecksumHeaders,
  parseChecksumType,
  parseContentMD5,
} from '../http/checksum-headers.js';
import { parseCopySource } from '../http/copy-source.js';
import { header, intParam, queryValue } from '../http/headers.js';
import { checkPartNumber } from '../routes/request-limits.js';
import type { Handler, S3Request } from '../routes/types.js';
import { checksumElements } from '../xml/checksum-elements.js';
import { each, el, group, xmlDocument } from '../xml/document.js';
import { ownerElement } from '../xml/owner.js';
import { partPageElements } from '../xml/part-page.js';
import { parseCompleteMultipartUpload } from '../xml/requests.js';
import { encoderFor } from '../xml/url-encoding.js';
import { requestObjectAcl } from './acl-writes.js';
import { xmlWithKeepAlive } from './keep-alive.js';
import { parseObjectAttributes } from './object-attributes.js';
import { checksumHeaders } from './object-headers.js';
import { payloadLength } from './object-write.js';
import { emptyResponse, opt, readBodyText, xmlResponse } from './respond.js';
import { writtenVersionId } from './written-version.js';

/** S3's part size limit. */
export const MAX_PART_SIZE = 5 * 1024 ** 3;

function uploadId(req: S3Request): string {
  const id = req.query.get('uploadId');
  if (!id) throw new S3Error('NoSuchUpload');
  return id;
}

function partNumber(req: S3Request): number {
  return checkPartNumber(req.query.get('partNumber') ?? '', req.limits);
}

export const createMultipartUpload: Handler = async (_c, req) => {
  const checksumAlgorithm = parseChecksumAlgorithmHeader(req.headers);
  const checksumType = parseChecksumType(req.headers, true);
  if (checksumAlgorithm) checkChecksumType(checksumAlgorithm, checksumType);
  const out = await req.backend.createMultipartUpload(req.ctx, {
    bucket: req.bucket,
    key: req.key,
    ...parseObjectAttributes(req.headers),
    ...opt('checksumAlgorithm', checksumAlgorithm),
    ...opt('checksumType', checksumType),
    acl: await requestObjectAcl(req),
  });
  return xmlResponse(
    xmlDocument(
      'InitiateMultipartUploadResult',
      el('Bucket', out.bucket) + el('Key', out.key) + el('UploadId', out.uploadId),
    ),
    200,
    { 'x-amz-checksum-algorithm': out.checksumAlgorithm, 'x-amz-checksum-type': out.checksumType },
  );
};

export const uploadPart: Handler = async (_c, req) => {
  const body = req.body;
  if (!body) throw new S3Error('InternalError');
  const contentLength = payloadLength(req, MAX_PART_SIZE);
  const out = await req.backend.uploadPart(req.ctx, {
    bucket: req.bucket,
    key: req.key,
    uploadId: uploadId(req),
    partNumber: partNumber(req),
    body: body.stream,
    ...opt('contentLength', contentLength),
    ...opt('contentMD5', parseContentMD5(req.headers)),
    ...opt(
      'checksum',
      checksumRequest(parseChecksumHeaders(req.headers), (n) => body.trailer(n)),
    ),
  });
  return emptyResponse(200, { etag: out.etag, ...checksumHeaders(out.checksums), ...out.responseHeaders });
};

/** x-amz-copy-source-range: `bytes=first-last`, both required. */
function parseSourceRange(value: string | undefined): { start: number; end: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^bytes=(\d+)-(\d+)$/.exec(value.trim());
  if (!m || Number(m[2]) < Number(m[1])) {
    throw new S3Error('InvalidArgument', undefined, {
      detail: { ArgumentName: 'x-amz-copy-source-range', ArgumentValue: value },
    });
  }
  return { start: Number(m[1]), end: Number(m[2]) };
}

export const uploadPartCopy: Handler = async (_c, req) => {
  const out = await req.backend.uploadPartCopy(req.ctx, {
    bucket: req.bucket,
    key: req.key,
    uploadId: uploadId(req),
    partNumber: partNumber(req),
    source: parseCopySource(req.headers),
    ...opt('sourceRange', parseSourceRange(header(req.headers, 'x-amz-copy-source-range'))),
  });
  return xmlResponse(
    xmlDocument(
      'CopyPartResult',
      el('LastModified', out.lastModified) + el('ETag', out.etag) + checksumElements(out.checksums),
    ),
    200,
    { 'x-amz-copy-source-version-id': out.copySourceVersionId },
  );
};

/**
 * The whole-object checksum a Complete request states in x-amz-checksum-<alg> (the object's, not
 * the XML body's): base64, with `-N` for a COMPOSITE upload; the backend compares it.
 */
function completeChecksums(req: S3Request): Checksums | undefined {
  const parsed = parseChecksumHeaders(req.headers);
  if (!parsed || parsed.value === undefined) return undefined;
  return { [parsed.algorithm]: parseCompleteChecksumValue(parsed.algorithm, parsed.value) };
}

export const completeMultipartUpload: Handler = async (c, req) => {
  const checksums = completeChecksums(req);
  const parts = parseCompleteMultipartUpload(await readBodyText(req, { checksumDescribesObject: true }));
  const sizeRaw = header(req.headers, 'x-amz-mp-object-size');
  const objectSize = sizeRaw === undefined ? undefined : Number(sizeRaw);
  if (objectSize !== undefined && (!Number.isSafeInteger(objectSize) || objectSize < 0)) {
    throw new S3Error('InvalidArgument', undefined, {
      detail: { ArgumentName: 'x-amz-mp-object-size', ArgumentValue: sizeRaw ?? '' },
    });
  }
  const input: CompleteMultipartUploadInput = {
    bucket: req.bucket,
    key: req.key,
    uploadId: uploadId(req),
    parts,
    ...opt('checksums', checksums),
    ...opt('checksumType', parseChecksumType(req.headers, false)),
    ...opt('objectSize', objectSize),
    ...opt('ifMatch', header(req.headers, 'if-match')),
    ...opt('ifNoneMatch', header(req.headers, 'if-none-match')),
  };
  const location = `/${req.bucket}/${req.key.split('/').map(encodeURIComponent).join('/')}`;
  const work = req.backend.completeMultipartUpload(req.ctx, input).then((out) => {
    const versionId = writtenVersionId(out.versionId);
    req.events?.emit({
      name: 'ObjectCreated:CompleteMultipartUpload',
      key: req.key,
      etag: out.etag,
      ...(versionId === undefined ? {} : { versionId }),
    });
    return {
      body: xmlDocument(
        'CompleteMultipartUploadResult',
        el('Location', location) +
          el('Bucket', out.bucket) +
          el('Key', out.key) +
          el('ETag', out.etag) +
          checksumElements(out.checksums) +
          el('ChecksumType', out.checksums ? out.checksumType : undefined),
      ),
      headers: { 'x-amz-version-id': versionId },
    };
  });
  // Assembling a large object can take long: keep the connection alive with whitespace.
  return xmlWithKeepAlive(c, req, work);
};

export const abortMultipartUpload: Handler = async (_c, req) => {
  await req.backend.abortMultipartUpload(req.ctx, {
    bucket: req.bucket,
    key: req.key,
    uploadId: uploadId(req),
  });
  return emptyResponse(204);
};

export const listParts: Handler = async (_c, req) => {
  const out = await req.backend.listParts(req.ctx, {
    bucket: req.bucket,
    key: req.key,
    uploadId: uploadId(req),
    maxParts: intParam(req.query, 'max-parts', { min: 0, max: 1000, default: 1000 }) ?? 1000,
    ...opt('partNumberMarker', intParam(req.query, 'part-number-marker', { min: 0 })),
  });
  const parts = each(out.parts, (p) =>
    group(
      'Part',
      el('PartNumber', p.partNumber) +
        el('LastModified', p.lastModified) +
        el('ETag', p.etag) +
        el('Size', p.size) +
        checksumElements(p.checksums),
    ),
  );
  const doc = xmlDocument(
    'ListPartsResult',
    el('Bucket', out.bucket) +
      uploadElements(out.key, out) +
      partPageElements(out) +
      el('ChecksumAlgorithm', out.checksumAlgorithm) +
      el('ChecksumType', out.checksumType) +
      parts,
  );
  return xmlResponse(doc);
};

/** What ListParts and each <Upload> of ListMultipartUploads say about an upload, in S3's order. */
function uploadElements(
  key: string | undefined,
  u: {
    readonly uploadId: string;
    readonly initiator?: Owner;
    readonly owner?: Owner;
    readonly storageClass: string;
  },
): string {
  return (
    el('Key', key) +
    el('UploadId', u.uploadId) +
    ownerElement('Initiator', u.initiator) +
    ownerElement('Owner', u.owner) +
    el('StorageClass', u.storageClass)
  );
}

export const listMultipartUploads: Handler = async (_c, req) => {
  const { encode, encodingType } = encoderFor(req.query);
  const maxUploads = intParam(req.query, 'max-uploads', { min: 0, max: 1000, default: 1000 }) ?? 1000;
  const prefix = queryValue(req.query, 'prefix');
  const delimiter = queryValue(req.query, 'delimiter');
  const out = await req.backend.listMultipartUploads(req.ctx, {
    bucket: req.bucket,
    maxUploads,
    ...opt('prefix', prefix),
    ...opt('delimiter', delimiter),
    ...opt('keyMarker', queryValue(req.query, 'key-marker')),
    ...opt('uploadIdMarker', queryValue(req.query, 'upload-id-marker')),
  });
  const uploads = each(out.uploads, (u) =>
    group(
      'Upload',
      uploadElements(encode(u.key), u) +
        el('Initiated', u.initiated) +
        el('ChecksumAlgorithm', u.checksumAlgorithm) +
        el('ChecksumType', u.checksumType),
    ),
  );
  const doc = xmlDocument(
    'ListMultipartUploadsResult',
    el('Bucket', out.bucket) +
      el('KeyMarker', encode(out.keyMarker ?? '')) +
      el('UploadIdMarker', out.uploadIdMarker ?? '') +
      el('NextKeyMarker', encode(out.nextKeyMarker)) +
      el('NextUploadIdMarker', out.nextUploadIdMarker) +
      el('Prefix', encode(prefix ?? '')) +
      el('Delimiter', encode(delimiter)) +
      el('MaxUploads', out.maxUploads) +
      el('EncodingType', encodingType) +
      el('IsTruncated', out.isTruncated) +
      uploads +
      each(out.commonPrefixes, (p) => group('CommonPrefixes', el('Prefix', encode(p)))),
  );
  return xmlResponse(doc);
};
