// The signing condition keys as authentication reports them, for every way of signing: the
// version and auth type of each, the payload claim, and s3:signatureAge for URLs only (ms since
// X-Amz-Date; 0 under SigV2, which signs no time). An anonymous request has none of them.
import { describe, expect, it } from 'vitest';
import type { SigningFacts } from '../../src/auth/index.js';
import { conditionContext } from '../../src/authz/condition-context.js';

const NOW = new Date('2026-12-03T08:00:00Z');

function keys(signing: SigningFacts | undefined, headers: Record<string, string> = {}) {
  const ctx = conditionContext({
    access: signing ? 'AK' : '',
    sourceIp: '127.0.0.1',
    secure: false,
    signing,
    headers,
    query: new URLSearchParams(),
    now: NOW,
  });
  const pick = (k: string) => ctx.get(k)?.[0];
  return {
    version: pick('s3:signatureversion'),
    authType: pick('s3:authtype'),
    sha256: pick('s3:x-amz-content-sha256'),
    age: pick('s3:signatureage'),
  };
}

describe('signing condition keys', () => {
  it.each([
    [
      'header SigV4',
      {
        version: 'AWS4-HMAC-SHA256',
        authType: 'REST-HEADER',
        signedAt: new Date(NOW.getTime() - 5000),
        contentSha256: 'UNSIGNED-PAYLOAD',
      },
      { version: 'AWS4-HMAC-SHA256', authType: 'REST-HEADER', sha256: 'UNSIGNED-PAYLOAD', age: undefined },
    ],
    [
      'presigned SigV4',
      {
        version: 'AWS4-HMAC-SHA256',
        authType: 'REST-QUERY-STRING',
        signedAt: new Date(NOW.getTime() - 660_000),
        contentSha256: 'UNSIGNED-PAYLOAD',
      },
      {
        version: 'AWS4-HMAC-SHA256',
        authType: 'REST-QUERY-STRING',
        sha256: 'UNSIGNED-PAYLOAD',
        age: '660000',
      },
    ],
    [
      'header SigV2',
      { version: 'AWS', authType: 'REST-HEADER', signedAt: NOW },
      { version: 'AWS', authType: 'REST-HEADER', sha256: undefined, age: undefined },
    ],
    [
      'presigned SigV2',
      { version: 'AWS', authType: 'REST-QUERY-STRING', contentSha256: 'UNSIGNED-PAYLOAD' },
      { version: 'AWS', authType: 'REST-QUERY-STRING', sha256: 'UNSIGNED-PAYLOAD', age: '0' },
    ],
    [
      'a POST form',
      { version: 'AWS4-HMAC-SHA256', authType: 'POST', signedAt: NOW },
      { version: 'AWS4-HMAC-SHA256', authType: 'POST', sha256: undefined, age: undefined },
    ],
  ] as const)('%s', (_name, signing, expected) => {
    expect(keys(signing)).toEqual(expected);
  });

  it('the payload claim the signature covers wins over a header sent beside a URL', () => {
    const url: SigningFacts = {
      version: 'AWS4-HMAC-SHA256',
      authType: 'REST-QUERY-STRING',
      signedAt: NOW,
      contentSha256: 'UNSIGNED-PAYLOAD',
    };
    expect(keys(url, { 'x-amz-content-sha256': 'a'.repeat(64) }).sha256).toBe('UNSIGNED-PAYLOAD');
  });

  it('an anonymous request has no signing keys (a negated condition on them holds, as in IAM)', () => {
    expect(keys(undefined)).toEqual({
      version: undefined,
      authType: undefined,
      sha256: undefined,
      age: undefined,
    });
    expect(keys(undefined, { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' }).sha256).toBe('UNSIGNED-PAYLOAD');
  });
});
