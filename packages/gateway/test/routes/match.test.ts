import { describe, expect, it } from 'vitest';
import { createMatcher, subresourceOf } from '../../src/routes/match.js';
import { ROUTES } from '../../src/routes/table.js';

const matcher = createMatcher(ROUTES);
const q = (s: string) => new URLSearchParams(s);

describe('route matching', () => {
  it('selects by method, target and sub-resource', () => {
    expect(matcher.match('GET', 'bucket', q(''), {}).action).toBe('s3:ListBucket');
    expect(matcher.match('GET', 'bucket', q('list-type=2'), {}).handler.name).toBe('listObjectsV2');
    expect(matcher.match('GET', 'bucket', q('versions&prefix=a'), {}).handler.name).toBe(
      'listObjectVersions',
    );
    expect(matcher.match('POST', 'bucket', q('delete'), {}).handler.name).toBe('deleteObjects');
    expect(matcher.match('DELETE', 'object', q('uploadId=x'), {}).handler.name).toBe('abortMultipartUpload');
  });

  it('prefers the row whose selector header is present', () => {
    expect(matcher.match('PUT', 'object', q(''), {}).handler.name).toBe('putObject');
    expect(matcher.match('PUT', 'object', q(''), { 'x-amz-copy-source': 'b/k' }).handler.name).toBe(
      'copyObject',
    );
    expect(matcher.match('PUT', 'object', q('partNumber=1&uploadId=u'), {}).handler.name).toBe('uploadPart');
    expect(
      matcher.match('PUT', 'object', q('partNumber=1&uploadId=u'), { 'x-amz-copy-source': 'b/k' }).handler
        .name,
    ).toBe('uploadPartCopy');
  });

  it('does not let unknown or unsupported sub-resources fall through to a plain operation', () => {
    expect(() => matcher.match('GET', 'bucket', q('lifecycle'), {})).toThrow(
      expect.objectContaining({ code: 'NotImplemented' }),
    );
    expect(() => matcher.match('PUT', 'bucket', q('replication'), {})).toThrow(
      expect.objectContaining({ code: 'NotImplemented' }),
    );
    expect(() => matcher.match('POST', 'object', q(''), {})).toThrow(
      expect.objectContaining({ code: 'NotImplemented' }),
    );
    expect(() => matcher.match('TRACE', 'object', q(''), {})).toThrow(
      expect.objectContaining({ code: 'MethodNotAllowed' }),
    );
  });

  it('reads uploadId before partNumber-free sub-resources', () => {
    expect(subresourceOf(q('uploadId=1&tagging'))).toBe('uploadId');
    expect(subresourceOf(q('versionId=3'))).toBeUndefined();
  });

  it('has no two rows for the same request', () => {
    const seen = new Set<string>();
    for (const r of ROUTES) {
      const k = `${r.method} ${r.target} ${r.subresource ?? ''} ${r.header ?? ''}`;
      expect(seen.has(k), k).toBe(false);
      seen.add(k);
    }
  });
});
