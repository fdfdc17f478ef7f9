import { S3Error } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { toS3Error } from '../src/azure-error.js';

const rest = (code: string | undefined, statusCode: number) =>
  Object.assign(new Error(code ?? 'x'), { name: 'RestError', code, statusCode });

describe('Blob Storage errors as S3 errors', () => {
  it.each([
    ['ContainerNotFound', 404, 'NoSuchBucket'],
    ['BlobNotFound', 404, 'NoSuchKey'],
    ['ConditionNotMet', 412, 'PreconditionFailed'],
    ['InvalidBlockList', 400, 'InvalidPart'],
    ['AuthenticationFailed', 403, 'AccessDenied'],
    [undefined, 412, 'PreconditionFailed'],
  ])('%s (%i) → %s', (code, status, want) => {
    const out = toS3Error(rest(code, status)) as S3Error;
    expect(out).toBeInstanceOf(S3Error);
    expect(out.code).toBe(want);
    expect(out.cause).toBeDefined();
  });

  it('passes S3 errors and unknown failures through unchanged', () => {
    const s3 = new S3Error('NoSuchUpload');
    expect(toS3Error(s3)).toBe(s3);
    const odd = rest('SomethingNew', 500);
    expect(toS3Error(odd)).toBe(odd);
  });
});
