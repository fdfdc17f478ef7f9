// The upstream-error table, on the SDK's own exception classes: the code an upstream names passes
// through (with its catalogue message), SDK-side names are translated, body-less answers are
// decided by status and by what was addressed, and non-HTTP failures are InternalErrors.
import { NoSuchBucket, NoSuchKey, NotFound, S3ServiceException } from '@aws-sdk/client-s3';
import { ERROR_TABLE, S3Error, statusOf } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { type ErrorScope, fromUpstream, upstreamErrorCode } from '../src/index.js';

const meta = (status: number) => ({ httpStatusCode: status });

/** An exception as the SDK builds it for a reply without a known error class. */
function service(name: string, status: number, message = 'upstream says no'): S3ServiceException {
  return new S3ServiceException({
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: meta(status),
    message,
  });
}

describe('upstream errors → S3Error', () => {
  it("picks the catalogue variant of the upstream's status where a code's variants differ", () => {
    // Ceph RGW words it its own way; S3 answers object lock on an unlocked bucket with a 409.
    const rgw = service(
      'InvalidBucketState',
      409,
      "object lock configuration can't be set if bucket object lock not enabled",
    );
    const lock = fromUpstream(rgw, 'bucket');
    expect(lock.status).toBe(409);
    expect(lock.message).toBe(
      "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration",
    );
    // The same code at 400: the versioning variant.
    expect(fromUpstream(service('InvalidBucketState', 400, 'other words'), 'bucket').status).toBe(400);
    // Our own gateway's 409 message passes with its status (a catalogue variant is not re-read as 400).
    const ours = service(
      'InvalidBucketState',
      409,
      "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration",
    );
    expect(fromUpstream(ours, 'bucket').status).toBe(409);
  });

  it('keeps a code the upstream named, with its status from our catalogue', () => {
    const err = fromUpstream(new NoSuchKey({ $metadata: meta(404), message: 'x' }), 'object');
    expect(err).toBeInstanceOf(S3Error);
    expect(err.code).toBe('NoSuchKey');
    expect(err.status).toBe(404);
    expect(fromUpstream(new NoSuchBucket({ $metadata: meta(404), message: 'x' }), 'object').code).toBe(
      'NoSuchBucket',
    );
    for (const code of [
      'BucketNotEmpty',
      'InvalidPart',
      'EntityTooSmall',
      'InvalidRange',
      'BadDigest',
    ] as const) {
      const mapped = fromUpstream(service(code, statusOf(code)), 'object');
      expect(mapped.code).toBe(code);
      expect(mapped.status).toBe(statusOf(code));
    }
  });

  it("keeps the upstream's message when it is one of the code's catalogue variants, else the default", () => {
    const variant = ERROR_TABLE.BucketNotEmpty.messages[1];
    expect(fromUpstream(service('BucketNotEmpty', 409, variant), 'bucket').message).toBe(variant);
    expect(fromUpstream(service('BucketNotEmpty', 409, 'made-up text'), 'bucket').message).toBe(
      new S3Error('BucketNotEmpty').message,
    );
  });

  it('translates SDK-side names that are not S3 codes', () => {
    expect(upstreamErrorCode(service('Forbidden', 403), 'object')).toBe('AccessDenied');
    expect(upstreamErrorCode(service('ServiceUnavailable', 503), 'object')).toBe('SlowDown');
    expect(upstreamErrorCode(service('XAmzContentSHA256Mismatch', 400), 'object')).toBe('BadDigest');
  });

  it('reads a body-less 404 (HEAD) by what was addressed', () => {
    const cases: [ErrorScope, string][] = [
      ['bucket', 'NoSuchBucket'],
      ['object', 'NoSuchKey'],
      ['upload', 'NoSuchUpload'],
    ];
    for (const [scope, code] of cases) {
      expect(upstreamErrorCode(new NotFound({ $metadata: meta(404), message: '' }), scope)).toBe(code);
    }
  });

  it('falls back on the HTTP status for names it does not know', () => {
    const byStatus: [number, string][] = [
      [304, 'NotModified'],
      [400, 'BadRequest'],
      [403, 'AccessDenied'],
      [412, 'PreconditionFailed'],
      [416, 'InvalidRange'],
      [500, 'InternalError'],
      [501, 'NotImplemented'],
      [502, 'InternalError'],
      [503, 'SlowDown'],
    ];
    for (const [status, code] of byStatus) {
      expect(upstreamErrorCode(service('Unknown', status), 'object'), `status ${status}`).toBe(code);
    }
  });

  it('answers InternalError, keeping the cause, for failures that are not HTTP answers', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const err = fromUpstream(refused, 'object');
    expect(err.code).toBe('InternalError');
    expect(err.status).toBe(500);
    expect(err.cause).toBe(refused);
  });

  it('passes an S3Error raised on this side unchanged', () => {
    const own = new S3Error('IncompleteBody');
    expect(fromUpstream(own, 'object')).toBe(own);
  });
});
