// What a log keeps of a request target: the values of X-Amz-Signature, Signature (SigV2 query
// auth) and X-Amz-Security-Token become REDACTED whatever their spelling; everything else —
// X-Amz-Credential's access key id included — is kept byte for byte.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from '../../src/observe/redact-url.js';

describe('redactUrl', () => {
  it('redacts the SigV4 presigned signature and session token, keeps the credential', () => {
    const url =
      '/b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA1%2F20260101%2Fus-east-1%2Fs3%2Faws4_request' +
      '&X-Amz-Date=20260101T000000Z&X-Amz-Expires=60&X-Amz-SignedHeaders=host' +
      '&X-Amz-Security-Token=FwoGZXIvYXdzEJr&X-Amz-Signature=0123abcd';
    const out = redactUrl(url);
    expect(out).toContain('X-Amz-Credential=AKIA1%2F20260101');
    expect(out).toContain(`X-Amz-Signature=${REDACTED}`);
    expect(out).toContain(`X-Amz-Security-Token=${REDACTED}`);
    expect(out).not.toMatch(/0123abcd|FwoGZXIvYXdzEJr/);
  });

  it('redacts SigV2 query auth, and names however spelt (case, percent-encoding)', () => {
    expect(redactUrl('/b/k?AWSAccessKeyId=AKIA1&Expires=1&Signature=abc%3D')).toBe(
      `/b/k?AWSAccessKeyId=AKIA1&Expires=1&Signature=${REDACTED}`,
    );
    expect(redactUrl('/b/k?x-amz-signature=s1&X-Amz-%53ignature=s2&SIGNATURE=s3&signature')).toBe(
      `/b/k?x-amz-signature=${REDACTED}&X-Amz-%53ignature=${REDACTED}&SIGNATURE=${REDACTED}&signature=${REDACTED}`,
    );
  });

  it('leaves targets without secrets unchanged, and a full URL (a Referer) is handled alike', () => {
    for (const url of ['/', '/b/k', '/b?list-type=2&prefix=a%20b', '/b/k?signatures=1&x-id=GetObject'])
      expect(redactUrl(url)).toBe(url);
    expect(redactUrl('https://app.example/page?Signature=zzz&x=1')).toBe(
      `https://app.example/page?Signature=${REDACTED}&x=1`,
    );
  });
});
