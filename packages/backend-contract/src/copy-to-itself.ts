// S3 refuses a CopyObject onto its own source that changes nothing (InvalidRequest). The gateway
// refuses it from the request headers before any backend is asked; backends refuse it from the
// CopyObjectInput they are given (an embedder may call them directly), all with this one error.
import { S3Error } from './errors/s3-error.js';
import type { CopyObjectInput } from './types/object.js';

export function copyToItselfError(): S3Error<'InvalidRequest'> {
  return new S3Error(
    'InvalidRequest',
    "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
  );
}

/**
 * Throws copyToItselfError() for a copy onto its own source that keeps the metadata.
 * `sameVersion`: whether the source is the destination's current version (a backend with
 * versions knows; false lets a copy of an older version onto the key through).
 */
export function checkNotCopyToItself(input: CopyObjectInput, sameVersion = true): void {
  const { source } = input;
  if (source.bucket !== input.bucket || source.key !== input.key) return;
  if (input.metadataDirective === 'REPLACE' || !sameVersion) return;
  throw copyToItselfError();
}
