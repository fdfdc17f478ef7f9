// authenticate() on requests signed by @smithy/signature-v4: accepted as signed, and each
// failure answered with the S3 code and message clients expect.
import { createHash, createHmac } from 'node:crypto';
import { ANONYMOUS, type S3Error } from '@vgwrdma/backend-contract';
import { rejectionOf } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.js';
import { staticCredentials } from '../../src/auth/credentials.js';
import { signingKey } from '../../src/auth/signing.js';
import type { AuthInput } from '../../src/auth/types.js';
import { SIGNING_DATE, signRequest, TEST_ACCESS, TEST_SECRET } from '../support/sign-request.js';

const store = staticCredentials([{ access: TEST_ACCESS, secret: TEST_SECRET }]);
const opts = { region: 'us-east-1' };

const failure = (input: AuthInput, options = opts) =>
  rejectionOf<S3Error>(authenticate(input, store, options), 'authenticate()');

const HEX = 'a'.repeat(64);

describe('header SigV4', () => {
  it('accepts a signed request and reports the account and payload mode', async () => {
    const input = await signRequest({ method: 'PUT', path: '/bucket/some%20key', payloadHash: HEX });
    const result = await authenticate(input, store, opts);
    expect(result).toMatchObject({
      anonymous: false,
      presigned: false,
      accessKey: TEST_ACCESS,
      payload: { kind: 'signed', sha256: HEX },
    });
    expect(result.account.access).toBe(TEST_ACCESS);
    expect(result.signedHeaders).toContain('host');
  });

  it('accepts a path sent unescaped when the client signed the canonical escaping', async () => {
    // The signer canonicalises '/bucket/a%20b'; a client may put 'a b'-style bytes or lower-case
    // escapes on the wire. The re-encoded path must still verify.
    const input = await signRequest({ path: '/bucket/%C3%A9t%C3%A9' });
    const lower = { ...input, rawPath: '/bucket/%c3%a9t%c3%a9' };
    await expect(authenticate(lower, store, opts)).resolves.toMatchObject({ anonymous: false });
  });

  it('gives streaming-signed bodies the seed signature, signing key, date and scope', async () => {
    const input = await signRequest({
      method: 'PUT',
      path: '/b/k',
      payloadHash: 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER',
    });
    const result = await authenticate(input, store, opts);
    const seed = /Signature=([0-9a-f]{64})/.exec(String(input.headers.authorization))?.[1];
    expect(result.payload).toEqual({
      kind: 'streaming-signed',
      trailer: true,
      seedSignature: seed,
      signingKey: signingKey(TEST_SECRET, '20261129', 'us-east-1', 's3'),
      amzDate: '20261129T080000Z',
      scope: '20261129/us-east-1/s3/aws4_request',
    });
  });

  it.each([
    ['UNSIGNED-PAYLOAD', 'unsigned'],
    ['STREAMING-UNSIGNED-PAYLOAD-TRAILER', 'streaming-unsigned-trailer'],
  ])('maps x-amz-content-sha256 %s to payload %s', async (value, kind) => {
    const result = await authenticate(
      await signRequest({ method: 'PUT', path: '/b/k', payloadHash: value }),
      store,
      opts,
    );
    expect(result.payload.kind).toBe(kind);
  });

  it('rejects clock skew beyond 15 minutes either way with RequestTimeTooSkewed', async () => {
    const input = await signRequest({ path: '/b/k' });
    for (const offset of [16 * 60_000, -16 * 60_000]) {
      const err = await failure({ ...input, now: new Date(SIGNING_DATE.getTime() + offset) });
      expect(err.code).toBe('RequestTimeTooSkewed');
    }
    await expect(
      authenticate({ ...input, now: new Date(SIGNING_DATE.getTime() + 14 * 60_000) }, store, opts),
    ).resolves.toBeDefined();
  });

  it('honours a custom maxSkewMs', async () => {
    const input = await signRequest({ path: '/b/k' });
    const err = await failure({ ...input, now: new Date(SIGNING_DATE.getTime() + 61_000) }, {
      ...opts,
      maxSkewMs: 60_000,
    } as typeof opts);
    expect(err.code).toBe('RequestTimeTooSkewed');
  });

  it('requires x-amz-content-sha256', async () => {
    const err = await failure(await signRequest({ path: '/b/k', payloadHash: null }));
    expect([err.code, err.message]).toEqual([
      'InvalidRequest',
      'Missing required header for this request: x-amz-content-sha256',
    ]);
  });

  it.each(['abc', 'STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD', 'g'.repeat(64)])(
    'rejects x-amz-content-sha256 %j',
    async (value) => {
      const err = await failure(await signRequest({ path: '/b/k', payloadHash: value }));
      expect([err.code, err.message]).toEqual([
        'InvalidRequest',
        'The value of x-amz-content-sha256 header is invalid.',
      ]);
    },
  );

  it.each([
    'AWS4-ECDSA-P256-SHA256 Credential=AK/20261129/s3/aws4_request, SignedHeaders=host, Signature=00',
    'Bearer token',
  ])('refuses other authorization mechanisms: %s', async (authorization) => {
    const input = await signRequest({ path: '/b/k' });
    const err = await failure({ ...input, headers: { ...input.headers, authorization } });
    expect([err.code, err.message]).toEqual([
      'InvalidRequest',
      'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.',
    ]);
  });

  it('reports a malformed Credential and missing components as AuthorizationHeaderMalformed', async () => {
    const input = await signRequest({ path: '/b/k' });
    const auth = String(input.headers.authorization);
    const cases = [
      auth.replace(/Credential=[^,]+/, 'Credential=AKID/20261129/us-east-1/s3'),
      auth.replace(/Credential=[^,]+/, 'Credential=AKID/2026-11-29/us-east-1/s3/aws4_request'),
      auth.replace(/Credential=[^,]+/, 'Credential=AKID/20261129/us-east-1/ec2/aws4_request'),
      auth.replace(/Credential=[^,]+/, 'Credential=AKID/20261129/us-east-1/s3/aws5_request'),
      auth.replace(/, Signature=[0-9a-f]+/, ''),
      'AWS4-HMAC-SHA256',
    ];
    for (const authorization of cases) {
      const err = await failure({ ...input, headers: { ...input.headers, authorization } });
      expect(err.code, authorization).toBe('AuthorizationHeaderMalformed');
    }
  });

  it('rejects a credential date that differs from x-amz-date', async () => {
    const input = await signRequest({ path: '/b/k' });
    const authorization = String(input.headers.authorization).replace('/20261129/', '/20261128/');
    const err = await failure({ ...input, headers: { ...input.headers, authorization } });
    expect(err.code).toBe('AuthorizationHeaderMalformed');
  });

  it('rejects an unknown access key with InvalidAccessKeyId', async () => {
    const err = await failure(await signRequest({ path: '/b/k', access: 'WHOISTHIS' }));
    expect(err.code).toBe('InvalidAccessKeyId');
  });

  it('answers AccessDenied when neither x-amz-date nor Date is usable', async () => {
    const input = await signRequest({ path: '/b/k' });
    const { 'x-amz-date': _dropped, ...headers } = input.headers;
    expect((await failure({ ...input, headers })).message).toBe(
      'AWS authentication requires a valid Date or x-amz-date header.',
    );
    expect(
      (await failure({ ...input, headers: { ...input.headers, 'x-amz-date': '2026-11-29T08:00:00Z' } })).code,
    ).toBe('AccessDenied');
  });

  it('accepts a request dated by the Date header instead of x-amz-date', async () => {
    // Signed by hand from the SigV4 spec: the Date header is signed and its time, in the basic
    // ISO form, goes into the string to sign.
    const h = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();
    const date = 'Sun, 29 Nov 2026 08:00:00 GMT';
    const canonical = [
      'GET',
      '/b/k',
      '',
      `date:${date}`,
      'host:h',
      'x-amz-content-sha256:UNSIGNED-PAYLOAD',
      '',
      'date;host;x-amz-content-sha256',
      'UNSIGNED-PAYLOAD',
    ].join('\n');
    const scope = '20261129/us-east-1/s3/aws4_request';
    const stringToSign = [
      'AWS4-HMAC-SHA256',
      '20261129T080000Z',
      scope,
      createHash('sha256').update(canonical).digest('hex'),
    ].join('\n');
    const key = h(h(h(h(`AWS4${TEST_SECRET}`, '20261129'), 'us-east-1'), 's3'), 'aws4_request');
    const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
    const input: AuthInput = {
      method: 'GET',
      rawPath: '/b/k',
      rawQuery: '',
      now: SIGNING_DATE,
      headers: {
        date,
        host: 'h',
        'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
        authorization: `AWS4-HMAC-SHA256 Credential=${TEST_ACCESS}/${scope}, SignedHeaders=date;host;x-amz-content-sha256, Signature=${signature}`,
      },
    };
    await expect(authenticate(input, store, opts)).resolves.toMatchObject({ accessKey: TEST_ACCESS });
    expect(
      (await failure({ ...input, headers: { ...input.headers, date: 'Sun, 29 Nov 2026 08:00:01 GMT' } }))
        .code,
    ).toBe('SignatureDoesNotMatch');
  });

  it('detects tampering with the path, query, method, a signed header, the payload hash or the signature', async () => {
    const input = await signRequest({
      method: 'PUT',
      path: '/bucket/key',
      query: { partNumber: '1', uploadId: 'u p' },
      headers: { 'x-amz-meta-colour': 'blue' },
      payloadHash: HEX,
    });
    await expect(authenticate(input, store, opts)).resolves.toBeDefined();
    const sig = /Signature=([0-9a-f]{64})/.exec(String(input.headers.authorization))?.[1] ?? '';
    const flipped = (sig[0] === '0' ? '1' : '0') + sig.slice(1);
    const tampered: AuthInput[] = [
      { ...input, rawPath: '/bucket/kez' },
      { ...input, rawPath: '/bucket//key' },
      { ...input, rawQuery: input.rawQuery.replace('partNumber=1', 'partNumber=2') },
      { ...input, rawQuery: `${input.rawQuery}&extra=1` },
      { ...input, method: 'POST' },
      { ...input, headers: { ...input.headers, 'x-amz-meta-colour': 'red' } },
      { ...input, headers: { ...input.headers, 'x-amz-content-sha256': 'b'.repeat(64) } },
      { ...input, headers: { ...input.headers, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } },
      {
        ...input,
        headers: {
          ...input.headers,
          authorization: String(input.headers.authorization).replace(sig, flipped),
        },
      },
      {
        ...input,
        headers: {
          ...input.headers,
          authorization: String(input.headers.authorization).replace(sig, sig.slice(0, 63)),
        },
      },
    ];
    for (const t of tampered) expect((await failure(t)).code).toBe('SignatureDoesNotMatch');
    const wrongSecret = await signRequest({
      method: 'PUT',
      path: '/bucket/key',
      payloadHash: HEX,
      secret: 'nope',
    });
    expect((await failure(wrongSecret)).code).toBe('SignatureDoesNotMatch');
  });

  it('rejects a request whose signed header is missing', async () => {
    const input = await signRequest({ path: '/b/k', headers: { 'x-amz-meta-a': '1' } });
    const { 'x-amz-meta-a': _gone, ...headers } = input.headers;
    expect((await failure({ ...input, headers })).code).toBe('SignatureDoesNotMatch');
  });

  it('canonicalises header values: trims and collapses whitespace', async () => {
    const input = await signRequest({ path: '/b/k', headers: { 'x-amz-meta-note': 'a b c' } });
    const spaced = { ...input, headers: { ...input.headers, 'x-amz-meta-note': '  a   b    c ' } };
    await expect(authenticate(spaced, store, opts)).resolves.toBeDefined();
  });

  it('refuses to mix header and query authentication', async () => {
    const input = await signRequest({ path: '/b/k' });
    const err = await failure({ ...input, rawQuery: 'X-Amz-Signature=abc' });
    expect(err.code).toBe('InvalidArgument');
  });
});

describe('anonymous requests', () => {
  const base: AuthInput = { method: 'GET', rawPath: '/b/k', rawQuery: '', headers: { host: 'x' } };

  it('are reported as anonymous with no payload claim', async () => {
    const result = await authenticate(base, store, opts);
    expect(result).toMatchObject({
      anonymous: true,
      presigned: false,
      account: ANONYMOUS,
      payload: { kind: 'none' },
    });
  });

  it('keep UNSIGNED-PAYLOAD and unsigned trailers', async () => {
    for (const [value, kind] of [
      ['UNSIGNED-PAYLOAD', 'unsigned'],
      ['STREAMING-UNSIGNED-PAYLOAD-TRAILER', 'streaming-unsigned-trailer'],
    ] as const) {
      const result = await authenticate({ ...base, headers: { 'x-amz-content-sha256': value } }, store, opts);
      expect(result.payload.kind).toBe(kind);
    }
  });

  it('cannot use signed streaming', async () => {
    const err = await failure({
      ...base,
      headers: { 'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD' },
    });
    expect(err.code).toBe('InvalidRequest');
    expect(err.message).toContain("Anonymous requests don't support this x-amz-content-sha256 value");
  });

  it('reads SigV2 query parameters as a presigned SigV2 URL (here an expired one)', async () => {
    const err = await failure({ ...base, rawQuery: 'AWSAccessKeyId=AK&Expires=1&Signature=abc' });
    expect([err.code, err.message]).toEqual(['AccessDenied', 'Request has expired.']);
  });
});
