import { describe, expect, it } from 'vitest';
import { parseRequestTarget, virtualHostBucket } from '../../src/http/request-target.js';

describe('parseRequestTarget', () => {
  it('splits service, bucket and object requests', () => {
    expect(parseRequestTarget('/').bucket).toBeUndefined();
    expect(parseRequestTarget('/b?list-type=2')).toMatchObject({ bucket: 'b', rawQuery: 'list-type=2' });
    expect(parseRequestTarget('/b/').key).toBeUndefined();
    expect(parseRequestTarget('/b/a%20b/c%2Bd+e')).toMatchObject({
      bucket: 'b',
      key: 'a b/c+d+e',
      rawPath: '/b/a%20b/c%2Bd+e',
    });
  });
  it('keeps a trailing slash and empty segments in keys', () => {
    expect(parseRequestTarget('/b/dir/').key).toBe('dir/');
    expect(parseRequestTarget('/b//x').key).toBe('/x');
  });
  it('accepts absolute-form targets', () => {
    expect(parseRequestTarget('http://h:9000/b/k?x=1')).toMatchObject({
      bucket: 'b',
      key: 'k',
      rawPath: '/b/k',
    });
  });
  it('rejects keys that are not UTF-8 text, escaped or raw, and C1 control characters', () => {
    for (const path of ['/b/%AE%8A-', '/b/\u00ae\u008a-', '/b/%C2%AE%C2%8A-'])
      expect(() => parseRequestTarget(path)).toThrow(
        expect.objectContaining({ code: 'InvalidURI', message: "Couldn't parse the specified URI." }),
      );
    // Raw UTF-8 bytes (Node hands them over as latin1 characters) read as the text they encode.
    expect(parseRequestTarget('/b/caf\u00c3\u00a9').key).toBe('café');
  });

  it('rejects undecodable paths and keys over 1024 bytes', () => {
    expect(() => parseRequestTarget('/b/%E0%A4%A')).toThrow(expect.objectContaining({ code: 'InvalidURI' }));
    expect(() => parseRequestTarget(`/b/${'%C3%A9'.repeat(513)}`)).toThrow(
      expect.objectContaining({ code: 'KeyTooLongError' }),
    );
    expect(parseRequestTarget(`/b/${'a'.repeat(1024)}`).key).toHaveLength(1024);
  });
});

describe('virtual-host style', () => {
  it('takes the bucket from the host under the configured domain', () => {
    expect(virtualHostBucket('photos.s3.example.com:9000', 's3.example.com')).toBe('photos');
    expect(virtualHostBucket('s3.example.com', 's3.example.com')).toBeUndefined();
    expect(virtualHostBucket('photos.other.com', 's3.example.com')).toBeUndefined();
    expect(virtualHostBucket('photos.s3.example.com', undefined)).toBeUndefined();
  });
  it('makes the whole path the key', () => {
    expect(parseRequestTarget('/a/b%20c?tagging', 'photos')).toMatchObject({
      bucket: 'photos',
      key: 'a/b c',
      rawPath: '/a/b%20c',
    });
    expect(parseRequestTarget('/?list-type=2', 'photos')).toMatchObject({ bucket: 'photos' });
    expect(parseRequestTarget('/', 'photos').key).toBeUndefined();
  });
});
