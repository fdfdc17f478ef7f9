import { describe, expect, it } from 'vitest';
import { encoderFor, s3UrlEncode } from '../../src/xml/url-encoding.js';

describe('s3UrlEncode', () => {
  it('keeps unreserved characters and slashes', () => {
    expect(s3UrlEncode('a/B-c_d.e~f/9')).toBe('a/B-c_d.e~f/9');
  });
  it('percent-encodes everything else as UTF-8 with upper-case hex', () => {
    expect(s3UrlEncode('a b+c&é\u0001')).toBe('a%20b%2Bc%26%C3%A9%01');
    expect(decodeURIComponent(s3UrlEncode("x!'()*"))).toBe("x!'()*");
  });
});

describe('encoderFor', () => {
  it('is the identity without encoding-type and rejects unknown types', () => {
    expect(encoderFor(new URLSearchParams('')).encode('a b')).toBe('a b');
    expect(encoderFor(new URLSearchParams('encoding-type=url')).encode('a b')).toBe('a%20b');
    expect(() => encoderFor(new URLSearchParams('encoding-type=base64'))).toThrow();
  });
});
