// The shared conversions: range headers both ways, copy-source encoding, tag headers, checksum
// fields, and HEAD/GET outputs turned into ObjectInfo (range, size, metadata, Expires verbatim).
import { describe, expect, it } from 'vitest';
import {
  checksumFields,
  checksumsFrom,
  copySource,
  objectInfoFrom,
  parseContentRange,
  rangeHeader,
  taggingQuery,
} from '../src/convert.js';

describe('conversions', () => {
  it('writes parsed ranges back as Range headers', () => {
    expect(rangeHeader({ kind: 'range', first: 10, last: 19 })).toBe('bytes=10-19');
    expect(rangeHeader({ kind: 'range', first: 90 })).toBe('bytes=90-');
    expect(rangeHeader({ kind: 'suffix', length: 10 })).toBe('bytes=-10');
  });

  it('reads Content-Range, and nothing else', () => {
    expect(parseContentRange('bytes 10-19/100')).toEqual({ start: 10, end: 19, size: 100 });
    expect(parseContentRange(undefined)).toBeUndefined();
    expect(parseContentRange('bytes */100')).toBeUndefined();
  });

  it('encodes copy sources per key segment, keeping the slashes, with the version', () => {
    expect(copySource('b', 'dir/with space/ünï+%.txt')).toBe('b/dir/with%20space/%C3%BCn%C3%AF%2B%25.txt');
    expect(copySource('b', 'k', 'v 1')).toBe('b/k?versionId=v%201');
  });

  it('sends tags as a URL query, as x-amz-tagging takes them', () => {
    const query = taggingQuery({ project: 'rdma & s3', tier: 'hot' });
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({ project: 'rdma & s3', tier: 'hot' });
  });

  it('maps checksum values between our table and the SDK fields', () => {
    const fields = checksumFields({ CRC32C: 'AAAAAA==', SHA256: 'x' });
    expect(fields).toEqual({ ChecksumCRC32C: 'AAAAAA==', ChecksumSHA256: 'x' });
    expect(checksumsFrom({ ...fields, ChecksumCRC32: '' })).toEqual({ CRC32C: 'AAAAAA==', SHA256: 'x' });
  });

  it('builds ObjectInfo from a ranged GET: full size from Content-Range, Expires verbatim', () => {
    const info = objectInfoFrom('k', {
      ETag: '"e"',
      ContentLength: 10,
      ContentRange: 'bytes 10-19/100',
      LastModified: new Date('2026-01-02T03:04:05Z'),
      Metadata: { color: 'blue' },
      ExpiresString: 'Wed, 21 Oct 2037 07:28:00 GMT',
      ChecksumCRC64NVME: 'abc',
      ChecksumType: 'FULL_OBJECT',
      PartsCount: 3,
    });
    expect(info).toMatchObject({
      key: 'k',
      etag: '"e"',
      size: 100,
      range: { start: 10, end: 19, size: 100 },
      metadata: { color: 'blue' },
      expires: 'Wed, 21 Oct 2037 07:28:00 GMT',
      checksums: { CRC64NVME: 'abc' },
      checksumType: 'FULL_OBJECT',
      partsCount: 3,
    });
    expect('contentType' in info).toBe(false); // absent fields are left out, not undefined
  });
});
