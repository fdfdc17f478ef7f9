// What a new object is created with, read from request headers (PutObject,
// CreateMultipartUpload, CopyObject with REPLACE): user metadata, content headers, tags, lock.
import { type ObjectAttributesInput, type ObjectLockMode, S3Error } from '@vgwrdma/backend-contract';
import {
  header,
  parseContentHeaders,
  parseHttpDate,
  parseTaggingHeader,
  parseUserMetadata,
  type RawHeaders,
} from '../http/headers.js';

/** S3's messages for malformed object lock headers (not in the catalogue (data/s3-errors.json)). */
const LOCK_MESSAGES = {
  bothHeaders: 'x-amz-object-lock-retain-until-date and x-amz-object-lock-mode must both be supplied',
  mode: 'Unknown wormMode directive.',
  date: 'The retain until date must be provided in ISO 8601 format',
  legalHold: "Legal Hold must be either of 'ON' or 'OFF'",
} as const;

export function parseObjectAttributes(headers: RawHeaders): ObjectAttributesInput {
  const out: ObjectAttributesInput = {
    ...parseContentHeaders(headers),
    metadata: parseUserMetadata(headers),
  };
  const tagging = parseTaggingHeader(header(headers, 'x-amz-tagging'));
  if (tagging) out.tagging = tagging;

  const mode = header(headers, 'x-amz-object-lock-mode');
  const until = header(headers, 'x-amz-object-lock-retain-until-date');
  if ((mode === undefined) !== (until === undefined))
    throw S3Error.custom('InvalidRequest', LOCK_MESSAGES.bothHeaders);
  if (mode !== undefined && until !== undefined) {
    if (mode !== 'GOVERNANCE' && mode !== 'COMPLIANCE')
      throw S3Error.custom('InvalidArgument', LOCK_MESSAGES.mode);
    const date = parseHttpDate(until);
    if (!date) throw S3Error.custom('InvalidArgument', LOCK_MESSAGES.date);
    out.retention = { Mode: mode satisfies ObjectLockMode, RetainUntilDate: date.toISOString() };
  }
  const hold = header(headers, 'x-amz-object-lock-legal-hold');
  if (hold !== undefined) {
    if (hold !== 'ON' && hold !== 'OFF') throw S3Error.custom('InvalidArgument', LOCK_MESSAGES.legalHold);
    out.legalHold = hold === 'ON';
  }
  return out;
}
