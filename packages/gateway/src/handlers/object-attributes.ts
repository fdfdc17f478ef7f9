// What a new object is created with, read from request headers (PutObject,
// CreateMultipartUpload, CopyObject with REPLACE): user metadata, content headers, tags, lock.
import { type ObjectAttributesInput, type ObjectLockMode, S3Error } from '@vgwrdma/s3-backend';
import {
  header,
  parseContentHeaders,
  parseHttpDate,
  parseTaggingHeader,
  parseUserMetadata,
  type RawHeaders,
} from '../http/headers.js';

export function parseObjectAttributes(headers: RawHeaders): ObjectAttributesInput {
  const out: ObjectAttributesInput = {
    ...parseContentHeaders(headers),
    metadata: parseUserMetadata(headers),
  };
  const tagging = parseTaggingHeader(header(headers, 'x-amz-tagging'));
  if (tagging) out.tagging = tagging;

  const mode = header(headers, 'x-amz-object-lock-mode');
  const until = header(headers, 'x-amz-object-lock-retain-until-date');
  if ((mode === undefined) !== (until === undefined)) throw new S3Error('InvalidRequest', 'Invalid Request.');
  if (mode !== undefined && until !== undefined) {
    if (mode !== 'GOVERNANCE' && mode !== 'COMPLIANCE')
      throw new S3Error('InvalidRequest', 'Invalid Request.');
    const date = parseHttpDate(until);
    if (!date) throw new S3Error('InvalidRequest', 'Invalid Request.');
    out.retention = { Mode: mode satisfies ObjectLockMode, RetainUntilDate: date.toISOString() };
  }
  const hold = header(headers, 'x-amz-object-lock-legal-hold');
  if (hold !== undefined) {
    if (hold !== 'ON' && hold !== 'OFF') throw new S3Error('InvalidRequest', 'Invalid Request.');
    out.legalHold = hold === 'ON';
  }
  return out;
}
