// The error table against the S3 error catalogue (packages/backend-contract/data/s3-errors.json, the
// source of catalogue.generated.ts), and S3Error's status, message-variant and detail behaviour.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/errors/catalogue.generated.js';
import {
  defaultMessage,
  ERROR_TABLE,
  isS3ErrorCode,
  type S3ErrorCode,
  statusOf,
} from '../../src/errors/codes.js';
import { EXTRA_CODES } from '../../src/errors/extra-codes.js';
import { isS3Error, S3Error, s3ErrorFromErrno } from '../../src/errors/s3-error.js';

const cataloguePath = fileURLToPath(new URL('../../data/s3-errors.json', import.meta.url));

interface CatalogueEntry {
  code: string;
  status: number;
  message: string;
}

describe('error table equals data/s3-errors.json', () => {
  const entries: CatalogueEntry[] = JSON.parse(readFileSync(cataloguePath, 'utf8')).errors;

  it('every catalogue entry is a known code whose variant carries that exact message and status', () => {
    expect(entries.length).toBeGreaterThan(50);
    const mismatches: string[] = [];
    for (const e of entries) {
      if (!isS3ErrorCode(e.code)) {
        mismatches.push(`${e.code}: unknown code`);
        continue;
      }
      const code: S3ErrorCode = e.code;
      const messages: readonly string[] = ERROR_TABLE[code].messages;
      if (!messages.includes(e.message)) mismatches.push(`${code}: message missing: ${e.message}`);
      // The message is checked against the variants just above; the cast only names it so.
      const err = new S3Error(code, e.message as never);
      if (statusOf(code, e.message) !== e.status || err.status !== e.status) {
        mismatches.push(`${code} "${e.message}": status ${statusOf(code, e.message)} != ${e.status}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('the generated catalogue has exactly the codes and messages of the file, nothing more', () => {
    const fromFile = new Map<string, string[]>();
    for (const e of entries) fromFile.set(e.code, [...(fromFile.get(e.code) ?? []), e.message]);
    const generated = Object.fromEntries(
      Object.entries(CATALOGUE).map(([code, v]) => [code, [...(v.messages as readonly string[])].sort()]),
    );
    const expected = Object.fromEntries([...fromFile].map(([code, msgs]) => [code, [...msgs].sort()]));
    expect(generated).toEqual(expected);
  });

  it('codes outside the file are exactly the extra codes, which the file does not list', () => {
    const fileCodes = new Set(entries.map((e) => e.code));
    const outside = Object.keys(ERROR_TABLE).filter((c) => !fileCodes.has(c));
    expect(outside.sort()).toEqual(Object.keys(EXTRA_CODES).sort());
  });
});

describe('S3Error', () => {
  it('takes status and the default message from the table', () => {
    const err = new S3Error('NoSuchKey');
    expect(err.code).toBe('NoSuchKey');
    expect(err.status).toBe(404);
    expect(err.message).toBe('The specified key does not exist.');
    expect(err.name).toBe('S3Error');
    expect(err).toBeInstanceOf(Error);
    expect(err.detail).toEqual({});
  });

  it('uses the preferred default variant for multi-message codes', () => {
    expect(new S3Error('AccessDenied').message).toBe('Access Denied.');
    expect(new S3Error('InvalidRequest').message).toBe('Invalid Request.');
    expect(defaultMessage('BucketNotEmpty')).toBe('The bucket you tried to delete is not empty.');
  });

  it('accepts a named message variant, and a variant with its own status gets that status', () => {
    const err = new S3Error(
      'InvalidRequest',
      'Cannot specify both Range header and partNumber query parameter',
    );
    expect(err.message).toBe('Cannot specify both Range header and partNumber query parameter');
    expect(err.status).toBe(400);
    const versioning = new S3Error(
      'InvalidBucketState',
      "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration",
    );
    expect(versioning.status).toBe(409);
    expect(new S3Error('InvalidBucketState').status).toBe(400);
  });

  it('carries detail elements, a status override and a cause', () => {
    const cause = new Error('root');
    const err = new S3Error('NoSuchBucket', undefined, { detail: { BucketName: 'b' }, status: 418, cause });
    expect(err.detail).toEqual({ BucketName: 'b' });
    expect(err.status).toBe(418);
    expect(err.cause).toBe(cause);
  });

  it('custom() keeps the code and status with an off-catalogue message', () => {
    const err = S3Error.custom('BadDigest', 'The CRC32 you specified did not match the calculated checksum.');
    expect(err.code).toBe('BadDigest');
    expect(err.status).toBe(400);
    expect(err.message).toBe('The CRC32 you specified did not match the calculated checksum.');
  });

  it('isS3Error and isS3ErrorCode tell values apart', () => {
    expect(isS3Error(new S3Error('NoSuchKey'))).toBe(true);
    expect(isS3Error(new Error('x'))).toBe(false);
    expect(isS3Error({ code: 'NoSuchKey' })).toBe(false);
    expect(isS3ErrorCode('NoSuchKey')).toBe(true);
    expect(isS3ErrorCode('toString')).toBe(false);
    expect(isS3ErrorCode('NoSuchThing')).toBe(false);
  });

  it('maps the errnos with an S3 meaning and leaves the rest to the caller', () => {
    const errno = (code: string) => Object.assign(new Error(code), { code });
    expect(s3ErrorFromErrno(errno('EDQUOT'))?.code).toBe('QuotaExceeded');
    expect(s3ErrorFromErrno(errno('ENOSPC'))?.code).toBe('InsufficientStorage');
    expect(s3ErrorFromErrno(errno('EROFS'))?.code).toBe('MethodNotAllowed');
    expect(s3ErrorFromErrno(errno('ENOENT'))).toBeUndefined();
    expect(s3ErrorFromErrno(undefined)).toBeUndefined();
    const mapped = s3ErrorFromErrno(errno('ENOSPC'));
    expect(mapped?.status).toBe(507);
    expect(mapped?.cause).toMatchObject({ message: 'ENOSPC' });
  });
});
