// SigV2 verification: AWS's documented examples (virtual-host GET, PUT with Content-Type, a
// listing whose query is outside the resource, a sub-resource), the date rules, the header form,
// presigned URLs. (The RDMA plugin's refusal of SigV2 is cu-backend's: test/rdma-signing.test.ts.)
import type { S3Error } from '@vgwrdma/backend-contract';
import { rejectionOf } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.js';
import { staticCredentials } from '../../src/auth/credentials.js';
import { signatureV2 } from '../../src/auth/sigv2-signature.js';
import type { AuthInput, RequestHeaders } from '../../src/auth/types.js';

const ACCESS = 'AKIAIOSFODNN7EXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const store = staticCredentials([{ access: ACCESS, secret: SECRET }]);
const opts = { region: 'us-east-1' };

function at(date: string): Date {
  return new Date(Date.parse(date) + 60_000);
}

const failure = (input: AuthInput) => rejectionOf<S3Error>(authenticate(input, store, opts));

/** A request signed with the given StringToSign (the tests state it in full). */
function signed(
  stringToSign: string,
  input: Omit<AuthInput, 'headers'> & { headers: RequestHeaders },
  secret = SECRET,
): AuthInput {
  const signature = signatureV2(secret, stringToSign).toString('base64');
  return { ...input, headers: { ...input.headers, authorization: `AWS ${ACCESS}:${signature}` } };
}

describe('SigV2 Authorization header', () => {
  it("verifies AWS's documented virtual-host GET", async () => {
    const date = 'Tue, 27 Mar 2007 19:36:42 +0000';
    const input: AuthInput = {
      method: 'GET',
      rawPath: '/photos/puppy.jpg',
      rawQuery: '',
      virtualHostBucket: 'johnsmith',
      headers: {
        host: 'johnsmith.s3.amazonaws.com',
        date,
        authorization: `AWS ${ACCESS}:bWq2s1WEIj+Ydj0vQ697zp+IXMU=`,
      },
      now: at(date),
    };
    const out = await authenticate(input, store, opts);
    expect([out.accessKey, out.anonymous, out.presigned, out.payload.kind]).toEqual([
      ACCESS,
      false,
      false,
      'none',
    ]);
    // The same request path-style signs another resource.
    const { virtualHostBucket: _, ...pathStyle } = input;
    expect((await failure(pathStyle)).code).toBe('SignatureDoesNotMatch');
  });

  it('signs Content-Type, every x-amz-* header sorted, and sub-resources but not other parameters', async () => {
    const date = 'Tue, 27 Mar 2007 21:15:45 +0000';
    const base = {
      method: 'PUT',
      rawPath: '/b/k%20x',
      rawQuery: 'acl&prefix=ignored',
      headers: {
        date,
        'content-type': 'image/jpeg',
        'x-amz-meta-b': ' two ',
        'x-amz-acl': 'public-read',
      },
      now: at(date),
    };
    const input = signed(
      `PUT\n\nimage/jpeg\n${date}\nx-amz-acl:public-read\nx-amz-meta-b:two\n/b/k%20x?acl`,
      base,
    );
    await expect(authenticate(input, store, opts)).resolves.toMatchObject({
      signedHeaders: ['content-type', 'date', 'x-amz-acl', 'x-amz-meta-b'],
    });
    // A header added afterwards is an x-amz-* header, hence signed, hence a mismatch.
    expect((await failure({ ...input, headers: { ...input.headers, 'x-amz-meta-c': '1' } })).code).toBe(
      'SignatureDoesNotMatch',
    );
    // The sub-resource is part of the resource; other parameters are not.
    expect((await failure({ ...input, rawQuery: 'prefix=ignored' })).code).toBe('SignatureDoesNotMatch');
    await expect(authenticate({ ...input, rawQuery: 'acl' }, store, opts)).resolves.toBeDefined();
  });

  it('with x-amz-date, accepts an empty Date line (S3) or the Date header in it (botocore)', async () => {
    const now = new Date();
    const amzDate = now.toUTCString();
    const base = { method: 'GET', rawPath: '/b', rawQuery: '', now };
    const headers = { 'x-amz-date': amzDate, date: 'Mon, 01 Jan 2001 00:00:00 GMT' };
    for (const dateLine of ['', headers.date]) {
      const input = signed(`GET\n\n\n${dateLine}\nx-amz-date:${amzDate}\n/b`, { ...base, headers });
      await expect(authenticate(input, store, opts)).resolves.toBeDefined();
    }
  });

  it.each([
    ['an invalid x-amz-date', { 'x-amz-date': 'Bad Date' }, 'AccessDenied'],
    ['an empty x-amz-date', { 'x-amz-date': '' }, 'AccessDenied'],
    ['no date at all', {}, 'AccessDenied'],
    ['an empty Date', { date: '' }, 'AccessDenied'],
    ['a date before 1970', { 'x-amz-date': 'Tue, 07 Jul 1950 21:53:04 GMT' }, 'AccessDenied'],
    ['a date in 2010', { 'x-amz-date': 'Tue, 07 Jul 2010 21:53:04 GMT' }, 'RequestTimeTooSkewed'],
    ['a date in 9999', { 'x-amz-date': 'Tue, 07 Jul 9999 21:53:04 GMT' }, 'RequestTimeTooSkewed'],
  ] as const)('refuses %s with 403 %s', async (_name, dateHeaders, code) => {
    const err = await failure({
      method: 'PUT',
      rawPath: '/b/k',
      rawQuery: '',
      headers: { ...dateHeaders, authorization: `AWS ${ACCESS}:bWq2s1WEIj+Ydj0vQ697zp+IXMU=` },
    });
    expect([err.code, err.status]).toEqual([code, 403]);
  });

  it('answers InvalidArgument for a malformed header and InvalidAccessKeyId for an unknown key', async () => {
    const headers = { date: new Date().toUTCString() };
    const malformed = await failure({
      method: 'GET',
      rawPath: '/',
      rawQuery: '',
      headers: { ...headers, authorization: 'AWS HAHAHA' },
    });
    expect([malformed.code, malformed.status]).toEqual(['InvalidArgument', 400]);
    const unknown = await failure({
      method: 'GET',
      rawPath: '/',
      rawQuery: '',
      headers: { ...headers, authorization: 'AWS AKIAIGR7ZNNBHC5BKSUB:FWeDfwojDSdS2Ztmpfeubhd9isU=' },
    });
    expect([unknown.code, unknown.status]).toEqual(['InvalidAccessKeyId', 403]);
  });

  it('accepts a metadata value signed over its wire bytes or over its UTF-8 re-encoding', async () => {
    const now = new Date();
    const date = now.toUTCString();
    // Node hands header bytes over as latin1: 'Ã©' is the UTF-8 of é as sent by a Go client.
    for (const [wire, signedText] of [
      ['Ã©', Buffer.from(`PUT\n\n\n${date}\nx-amz-meta-m:é\n/b/k`, 'utf8')],
      ['é', Buffer.from(`PUT\n\n\n${date}\nx-amz-meta-m:é\n/b/k`, 'utf8')],
    ] as const) {
      const signature = signatureV2(SECRET, signedText).toString('base64');
      const input: AuthInput = {
        method: 'PUT',
        rawPath: '/b/k',
        rawQuery: '',
        headers: { date, 'x-amz-meta-m': wire, authorization: `AWS ${ACCESS}:${signature}` },
        now,
      };
      await expect(authenticate(input, store, opts)).resolves.toBeDefined();
    }
  });
});

describe('SigV2 presigned URLs', () => {
  const expires = String(Math.floor(Date.now() / 1000) + 600);
  function presigned(stringToSign: string, extraQuery = ''): AuthInput {
    const signature = encodeURIComponent(signatureV2(SECRET, stringToSign).toString('base64'));
    return {
      method: 'GET',
      rawPath: '/b/k',
      rawQuery: `AWSAccessKeyId=${ACCESS}&Expires=${expires}&Signature=${signature}${extraQuery}`,
      headers: { host: 'localhost' },
    };
  }

  it('verifies Expires in the Date line and marks the result presigned', async () => {
    const out = await authenticate(presigned(`GET\n\n\n${expires}\n/b/k`), store, opts);
    expect([out.presigned, out.payload.kind]).toEqual([true, 'unsigned']);
    expect((await failure(presigned(`GET\n\n\n${expires}\n/b/other`))).code).toBe('SignatureDoesNotMatch');
  });

  it('signs x-amz-* query parameters a signer moved out of the headers', async () => {
    const input = presigned(`GET\n\n\n${expires}\nx-amz-acl:private\n/b/k`, '&x-amz-acl=private');
    await expect(authenticate(input, store, opts)).resolves.toBeDefined();
  });

  it('refuses an expired URL, a bad Expires and missing parameters with 403 AccessDenied', async () => {
    const expired = await failure({
      ...presigned(`GET\n\n\n${expires}\n/b/k`),
      now: new Date((Number(expires) + 1) * 1000),
    });
    expect([expired.code, expired.status, expired.message]).toEqual([
      'AccessDenied',
      403,
      'Request has expired.',
    ]);
    const bad = await failure({
      method: 'GET',
      rawPath: '/b/k',
      rawQuery: `AWSAccessKeyId=${ACCESS}&Expires=soon&Signature=x`,
      headers: {},
    });
    expect([bad.code, bad.status]).toEqual(['AccessDenied', 403]);
    const missing = await failure({
      method: 'GET',
      rawPath: '/b/k',
      rawQuery: `AWSAccessKeyId=${ACCESS}&Signature=x`,
      headers: {},
    });
    expect([missing.code, missing.status]).toEqual(['AccessDenied', 403]);
  });

  it('refuses a query signature beside an Authorization header', async () => {
    const input = presigned(`GET\n\n\n${expires}\n/b/k`);
    const err = await failure({ ...input, headers: { authorization: `AWS ${ACCESS}:x` } });
    expect(err.code).toBe('InvalidArgument');
  });
});
