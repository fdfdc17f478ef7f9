// CopyObject (PUT with x-amz-copy-source); the source is parsed by http/copy-source.ts.

import {
  type CopyObjectInput,
  copyToItselfError,
  type MetadataDirective,
  S3Error,
} from '@vgwrdma/backend-contract';
import { parseChecksumAlgorithmHeader } from '../http/checksum-headers.js';
import { parseCopySource } from '../http/copy-source.js';
import { header, type RawHeaders } from '../http/headers.js';
import { checkCopySourceSize, S3_MAX_COPY_SOURCE } from '../routes/request-limits.js';
import type { Handler } from '../routes/types.js';
import { checksumElements } from '../xml/checksum-elements.js';
import { el, xmlDocument } from '../xml/document.js';
import { requestObjectAcl } from './acl-writes.js';
import { parseObjectAttributes } from './object-attributes.js';
import { type HeaderMap, opt, xmlResponse } from './respond.js';
import { writtenVersionId } from './written-version.js';

function directive(headers: RawHeaders, name: string): MetadataDirective | undefined {
  const v = header(headers, name);
  if (v === undefined) return undefined;
  const upper = v.toUpperCase();
  if (upper !== 'COPY' && upper !== 'REPLACE') {
    throw new S3Error('InvalidArgument', undefined, { detail: { ArgumentName: name, ArgumentValue: v } });
  }
  return upper;
}

export const copyObject: Handler = async (_c, req) => {
  const source = parseCopySource(req.headers);
  const metadataDirective = directive(req.headers, 'x-amz-metadata-directive');
  const taggingDirective = directive(req.headers, 'x-amz-tagging-directive');
  const checksumAlgorithm = parseChecksumAlgorithmHeader(req.headers);
  const toItself = source.bucket === req.bucket && source.key === req.key && source.versionId === undefined;
  if (
    toItself &&
    metadataDirective !== 'REPLACE' &&
    checksumAlgorithm === undefined &&
    !header(req.headers, 'x-amz-storage-class')
  ) {
    throw copyToItselfError();
  }
  // --copy-object-threshold below S3's own 5 GiB: the source's size decides before any copying.
  if (req.limits.copyObjectThreshold < S3_MAX_COPY_SOURCE) {
    const head = await req.backend.headObject(req.ctx, {
      bucket: source.bucket,
      key: source.key,
      ...opt('versionId', source.versionId),
    });
    checkCopySourceSize(head.size, req.limits);
  }
  const attributes = parseObjectAttributes(req.headers);
  const input: CopyObjectInput = {
    bucket: req.bucket,
    key: req.key,
    source,
    ...attributes,
    ...opt('metadataDirective', metadataDirective),
    ...opt('taggingDirective', taggingDirective),
    ...opt('checksumAlgorithm', checksumAlgorithm),
    acl: await requestObjectAcl(req),
  };
  const out = await req.backend.copyObject(req.ctx, input);
  const versionId = writtenVersionId(out.versionId);
  req.events?.emit({
    name: 'ObjectCreated:Copy',
    key: req.key,
    etag: out.etag,
    ...(versionId === undefined ? {} : { versionId }),
  });
  const headers: HeaderMap = {
    'x-amz-version-id': writtenVersionId(out.versionId),
    'x-amz-copy-source-version-id': out.copySourceVersionId,
  };
  return xmlResponse(
    xmlDocument(
      'CopyObjectResult',
      el('LastModified', out.lastModified) + el('ETag', out.etag) + checksumElements(out.checksums),
    ),
    200,
    headers,
  );
};
