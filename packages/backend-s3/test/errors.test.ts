// The backend's own errors are catalogue members (docs/errors.md): callers branch on `code`.
import { isVgwrdmaError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { MetaBucketMissingError } from '../src/s3-backend.js';
import { spoolConfig } from '../src/spool/spool-config.js';

describe('backend-s3 errors', () => {
  it('MetaBucketMissingError is VGW_ERR_S3_META_BUCKET_MISSING, keeping its name, bucket and cause', () => {
    const cause = new Error('NotFound');
    const e = new MetaBucketMissingError('meta', { cause });
    expect(e).toBeInstanceOf(MetaBucketMissingError);
    expect(isVgwrdmaError(e, 'VGW_ERR_S3_META_BUCKET_MISSING')).toBe(true);
    expect(e).toMatchObject({ name: 'MetaBucketMissingError', bucket: 'meta', cause });
  });

  it('spool sizes out of range are VGW_ERR_INVALID_ARGUMENT; valid ones pass', () => {
    const base = { endpoint: 'http://127.0.0.1:1', region: 'us-east-1', access: 'a', secret: 's' };
    const bad = [{ uploadPartSize: 1 }, { spoolMemory: -1 }];
    for (const o of bad)
      expect(() => spoolConfig({ ...base, ...o } as never)).toThrow(
        expect.objectContaining({ code: 'VGW_ERR_INVALID_ARGUMENT', name: 'InvalidArgumentError' }),
      );
    expect(spoolConfig({ ...base, spoolMemory: 0 } as never).memoryBytes).toBe(0);
  });
});
