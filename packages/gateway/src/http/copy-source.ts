// x-amz-copy-source parsed once, the same way for the handlers that copy (CopyObject,
// UploadPartCopy) and for the authorizer that decides whether the caller may read that source:
// a second parser could name a different object than the one copied.
import { type CopySource, S3Error } from '@vgwrdma/backend-contract';
import { assertValidBucketName } from './bucket-name.js';
import { header, parseConditions, type RawHeaders } from './headers.js';
import { MAX_KEY_BYTES } from './request-target.js';

function invalidCopySource(value: string): S3Error {
  return new S3Error('InvalidArgument', undefined, {
    detail: { ArgumentName: 'x-amz-copy-source', ArgumentValue: value },
  });
}

/** x-amz-copy-source: URL-encoded `[/]bucket/key[?versionId=id]`, with x-amz-copy-source-if-*. */
export function parseCopySource(headers: RawHeaders): CopySource {
  const raw = header(headers, 'x-amz-copy-source') ?? '';
  const q = raw.indexOf('?');
  const pathPart = q === -1 ? raw : raw.slice(0, q);
  let path: string;
  try {
    path = decodeURIComponent(pathPart);
  } catch {
    throw invalidCopySource(raw);
  }
  if (path.startsWith('/')) path = path.slice(1);
  const slash = path.indexOf('/');
  if (slash <= 0 || slash === path.length - 1) throw invalidCopySource(raw);
  const bucket = path.slice(0, slash);
  const key = path.slice(slash + 1);
  assertValidBucketName(bucket);
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError');
  const versionId =
    q === -1 ? undefined : (new URLSearchParams(raw.slice(q + 1)).get('versionId') ?? undefined);
  const conditions = parseConditions(headers, 'x-amz-copy-source-');
  return {
    bucket,
    key,
    ...(versionId === undefined ? {} : { versionId }),
    ...(conditions === undefined ? {} : { conditions }),
  };
}
