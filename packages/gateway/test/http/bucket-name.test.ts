import { describe, expect, it } from 'vitest';
import { isValidBucketName } from '../../src/http/bucket-name.js';

describe('isValidBucketName', () => {
  it.each(['abc', 'my-bucket', 'my.bucket.1', 'a'.repeat(63), '123'])('accepts %s', (name) => {
    expect(isValidBucketName(name)).toBe(true);
  });
  it.each([
    'ab',
    'a'.repeat(64),
    'MyBucket',
    '-abc',
    'abc-',
    'a..b',
    'a.-b',
    '192.168.1.1',
    'xn--abc',
    'sthree-x',
    'bucket-s3alias',
    'under_score',
    'sp ace',
  ])('rejects %s', (name) => {
    expect(isValidBucketName(name)).toBe(false);
  });
});
