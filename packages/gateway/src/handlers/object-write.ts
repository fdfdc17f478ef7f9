// PutObject, DeleteObject and DeleteObjects.

import { type PutObjectInput, S3Error } from '@vgwrdma/backend-contract';
import { checksumRequest, parseChecksumHeaders, parseContentMD5 } from '../http/checksum-headers.js';
import { header, queryValue, type RawHeaders } from '../http/headers.js';
import type { Handler, S3Request } from '../routes/types.js';
import { each, el, group, xmlDocument } from '../xml/document.js';
import { parseDelete } from '../xml/requests.js';
import { requestObjectAcl } from './acl-writes.js';
import { parseObjectAttributes } from './object-attributes.js';
import { checksumHeaders } from './object-headers.js';
import { emptyResponse, opt, readBodyText, xmlResponse } from './respond.js';
import { writtenVersionId } from './written-version.js';

/** S3's single-PUT limit. */
export const MAX_PUT_SIZE = 5 * 1024 ** 3;

/**
 * The payload length: decoded length for aws-chunked bodies, Content-Length otherwise.
 * A plain body with neither Content-Length nor HTTP chunked framing is refused
 * (MissingContentLength). A `Transfer-Encoding: chunked` body has no length up front: it is
 * stored as it streams (undefined here), and the backend still enforces the size limit.
 */
export function payloadLength(req: S3Request, max: number): number | undefined {
  // aws-chunked framing (also under a plain signed hash, Content-Encoding: aws-chunked,gzip):
  // the stored length is the decoded one, not the framed Content-Length.
  const streaming = req.body?.awsChunked ?? req.auth.payload.kind.startsWith('streaming');
  const raw = header(req.headers, 'content-length');
  if (!streaming && raw === undefined) {
    if (httpChunked(req.headers)) return undefined;
    throw new S3Error('MissingContentLength');
  }
  const length = streaming ? req.body?.decodedLength : raw === undefined ? undefined : Number(raw);
  if (length !== undefined && (!Number.isSafeInteger(length) || length < 0))
    throw new S3Error('MissingContentLength');
  if (length !== undefined && length > max) throw new S3Error('EntityTooLarge');
  return length;
}

/** Node has already removed the HTTP/1.1 chunk framing; the header says it was there. */
function httpChunked(headers: RawHeaders): boolean {
  const te = header(headers, 'transfer-encoding');
  return te?.split(',').some((coding) => coding.trim().toLowerCase() === 'chunked') ?? false;
}

function bypassGovernance(headers: RawHeaders): boolean {
  return header(headers, 'x-amz-bypass-governance-retention')?.toLowerCase() === 'true';
}

export const putObject: Handler = async (_c, req) => {
  const body = req.body;
  if (!body) throw new S3Error('InternalError');
  const contentLength = payloadLength(req, MAX_PUT_SIZE);
  const checksum = checksumRequest(parseChecksumHeaders(req.headers), (n) => body.trailer(n));
  const input: PutObjectInput = {
    bucket: req.bucket,
    key: req.key,
    body: body.stream,
    ...parseObjectAttributes(req.headers),
    ...opt('contentLength', contentLength),
    ...opt('contentMD5', parseContentMD5(req.headers)),
    ...opt('checksum', checksum),
    ...opt('ifMatch', header(req.headers, 'if-match')),
    ...opt('ifNoneMatch', header(req.headers, 'if-none-match')),
    acl: await requestObjectAcl(req),
  };
  const out = await req.backend.putObject(req.ctx, input);
  req.events?.emit({
    name: 'ObjectCreated:Put',
    key: req.key,
    etag: out.etag,
    ...opt('versionId', writtenVersionId(out.versionId)),
  });
  return emptyResponse(200, {
    etag: out.etag,
    'x-amz-version-id': writtenVersionId(out.versionId),
    ...checksumHeaders(out.checksums, out.checksumType),
    // Decorators (CuServer) add reply headers; they go out unchanged.
    ...out.responseHeaders,
  });
};

export const deleteObject: Handler = async (_c, req) => {
  const out = await req.backend.deleteObject(req.ctx, {
    bucket: req.bucket,
    key: req.key,
    ...opt('versionId', queryValue(req.query, 'versionId')),
    ...opt('ifMatch', header(req.headers, 'if-match')),
    ...(bypassGovernance(req.headers) ? { bypassGovernanceRetention: true } : {}),
  });
  req.events?.emit({
    name: out.deleteMarker ? 'ObjectRemoved:DeleteMarkerCreated' : 'ObjectRemoved:Delete',
    key: req.key,
    ...opt('versionId', out.versionId),
  });
  return emptyResponse(204, {
    'x-amz-delete-marker': out.deleteMarker ? 'true' : undefined,
    'x-amz-version-id': out.versionId,
  });
};

export const deleteObjects: Handler = async (_c, req) => {
  const hasDigest =
    header(req.headers, 'content-md5') !== undefined ||
    Object.keys(req.headers).some((h) => h.startsWith('x-amz-checksum-') && h !== 'x-amz-checksum-type') ||
    header(req.headers, 'x-amz-trailer') !== undefined;
  if (!hasDigest)
    throw new S3Error(
      'InvalidRequest',
      'Missing required header for this request: Content-MD5 OR x-amz-checksum-*',
    );
  const parsed = parseDelete(await readBodyText(req));
  const out = await req.backend.deleteObjects(req.ctx, {
    bucket: req.bucket,
    objects: parsed.objects,
    quiet: parsed.quiet,
    ...(bypassGovernance(req.headers) ? { bypassGovernanceRetention: true } : {}),
  });
  for (const d of out.deleted)
    req.events?.emit({
      name: d.deleteMarker ? 'ObjectRemoved:DeleteMarkerCreated' : 'ObjectRemoved:Delete',
      key: d.key,
      ...opt('versionId', d.deleteMarker ? d.deleteMarkerVersionId : d.versionId),
    });
  const deleted = parsed.quiet
    ? ''
    : each(out.deleted, (d) =>
        group(
          'Deleted',
          el('Key', d.key) +
            el('VersionId', d.versionId) +
            el('DeleteMarker', d.deleteMarker) +
            el('DeleteMarkerVersionId', d.deleteMarkerVersionId),
        ),
      );
  const errors = each(out.errors, (e) =>
    group(
      'Error',
      el('Key', e.key) + el('VersionId', e.versionId) + el('Code', e.code) + el('Message', e.message),
    ),
  );
  return xmlResponse(xmlDocument('DeleteResult', deleted + errors));
};
