// The canonical-request pieces on their own: encoding, query sorting, path candidates, headers.
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.js';
import {
  canonicalHeaders,
  canonicalQueries,
  canonicalUris,
  splitRawQuery,
} from '../../src/auth/canonical-request.js';
import { staticCredentials } from '../../src/auth/credentials.js';
import { reencode, uriDecode, uriEncode } from '../../src/auth/uri-encoding.js';
import { signRequest, TEST_ACCESS, TEST_SECRET } from '../support/sign-request.js';

describe('URI encoding', () => {
  it('keeps only RFC 3986 unreserved bytes and escapes the rest in upper case', () => {
    expect(uriEncode(Buffer.from("aZ09-_.~ /+=!*'()%é"), false)).toBe(
      'aZ09-_.~%20%2F%2B%3D%21%2A%27%28%29%25%C3%A9',
    );
    expect(uriEncode(Buffer.from('a/b'), true)).toBe('a/b');
  });

  it('decodes escapes in either case, keeps a stray % and non-UTF-8 bytes', () => {
    expect(uriDecode('%c3%A9', false).toString()).toBe('é');
    expect(reencode('100%', false, false)).toBe('100%25');
    expect(reencode('%FF%fe', false, false)).toBe('%FF%FE');
    expect(reencode('a+b', false, false)).toBe('a%2Bb');
    expect(reencode('a+b', false, true)).toBe('a%20b');
  });
});

describe('canonical query', () => {
  it('sorts by name then value and gives valueless parameters an empty value', () => {
    expect(canonicalQueries('uploads&prefix=b&delimiter=%2F&prefix=a')).toEqual([
      'delimiter=%2F&prefix=a&prefix=b&uploads=',
    ]);
  });

  it('re-encodes names and values and can leave one parameter out', () => {
    expect(canonicalQueries('X-Amz-Signature=abc&k~ey=v%7e*', 'X-Amz-Signature')).toEqual(['k~ey=v~%2A']);
  });

  it('reads a literal + in the query as a space, as the router does', () => {
    expect(canonicalQueries('prefix=a+b')).toEqual(['prefix=a%20b']); // as the router reads it
    expect(canonicalQueries('prefix=a%2Bb')).toEqual(['prefix=a%2Bb']);
  });

  it('splits the raw query without decoding', () => {
    expect(splitRawQuery('a=1&&b&c=x%3Dy=z')).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: '' },
      { name: 'c', value: 'x%3Dy=z' },
    ]);
  });

  it('lets a request whose query arrives unsorted verify', async () => {
    const store = staticCredentials([{ access: TEST_ACCESS, secret: TEST_SECRET }]);
    const input = await signRequest({
      path: '/b',
      query: { 'max-keys': '3', 'list-type': '2', delimiter: '/', 'a-first': '' },
    });
    expect(input.rawQuery.startsWith('max-keys=')).toBe(true);
    await expect(authenticate(input, store, { region: 'us-east-1' })).resolves.toMatchObject({
      anonymous: false,
    });
  });
});

describe('canonical URI candidates', () => {
  it('uses the raw path first and its canonical re-encoding second', () => {
    expect(canonicalUris('/b/a%20b')).toEqual(['/b/a%20b']);
    expect(canonicalUris('/b/a%2fb')).toEqual(['/b/a%2fb', '/b/a%2Fb']);
    expect(canonicalUris("/b/it's")).toEqual(["/b/it's", '/b/it%27s']);
    expect(canonicalUris('')).toEqual(['/']);
  });

  it('never folds // or dot segments (S3 signs them as sent)', () => {
    expect(canonicalUris('/b//./x/../y')).toEqual(['/b//./x/../y']);
  });
});

describe('canonical headers', () => {
  it('trims, collapses inner whitespace and joins repeated values with commas', () => {
    const block = canonicalHeaders({ host: ' h ', 'x-amz-meta-a': ['1', ' 2  3 '] }, [
      'host',
      'x-amz-meta-a',
    ]);
    expect(block).toBe('host:h\nx-amz-meta-a:1,2 3\n');
  });

  it('is undefined when a signed header is missing', () => {
    expect(canonicalHeaders({ host: 'h' }, ['host', 'range'])).toBeUndefined();
  });
});
