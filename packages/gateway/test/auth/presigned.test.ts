// Presigned URLs made by @aws-sdk/s3-request-presigner: fetched over loopback they verify (odd
// keys, GET and PUT with a body), and expiry, lifetime limits, missing parameters and tampering
// are answered as S3 does.
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Error } from '@vgwrdma/backend-contract';
import { rejectionOf } from '@vgwrdma/test-kit/scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.js';
import { staticCredentials } from '../../src/auth/credentials.js';
import type { AuthInput } from '../../src/auth/types.js';
import { type AuthServer, splitUrl, startAuthServer } from '../support/auth-server.js';

const ACCESS = 'AKIDPRESIGN';
const SECRET = 'presign/secret';
const store = staticCredentials([{ access: ACCESS, secret: SECRET }]);
const opts = { region: 'us-east-1' };
let server: AuthServer;

function client(endpoint = server.endpoint, region = 'us-east-1', secret = SECRET): S3Client {
  return new S3Client({
    endpoint,
    region,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS, secretAccessKey: secret },
  });
}

/** A presigned GET as the AuthInput the gateway would see, plus the moment it was signed. */
async function presignedInput(
  options: { expiresIn?: number; key?: string; c?: S3Client } = {},
): Promise<AuthInput & { now: Date }> {
  const signedAt = new Date();
  const url = new URL(
    await getSignedUrl(
      options.c ?? client(),
      new GetObjectCommand({ Bucket: 'b', Key: options.key ?? 'k' }),
      {
        expiresIn: options.expiresIn ?? 900,
        signingDate: signedAt,
      },
    ),
  );
  const { rawPath, rawQuery } = splitUrl(url.pathname + url.search);
  return { method: 'GET', rawPath, rawQuery, headers: { host: url.host }, now: signedAt };
}

const failure = (input: AuthInput) => rejectionOf<S3Error>(authenticate(input, store, opts));

function withQuery(input: AuthInput, edit: (q: URLSearchParams) => void): AuthInput {
  const q = new URLSearchParams(input.rawQuery);
  edit(q);
  return { ...input, rawQuery: q.toString() };
}

beforeAll(async () => {
  server = await startAuthServer(store, opts);
});
afterAll(() => server.close());

describe('presigned URLs from @aws-sdk/s3-request-presigner', () => {
  it.each(['plain', 'with space', 'unicodé/日本', 'a+b=c~d', 'dir//double', "odd!*'()&$,;:@"])(
    'GET %j verifies over HTTP',
    async (key) => {
      const url = await getSignedUrl(client(), new GetObjectCommand({ Bucket: 'b', Key: key }), {
        expiresIn: 60,
      });
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const record = server.records.at(-1);
      expect(record?.result).toMatchObject({
        presigned: true,
        anonymous: false,
        accessKey: ACCESS,
        payload: { kind: 'unsigned' },
      });
    },
  );

  it('PUT with a body verifies and the body passes through', async () => {
    const url = await getSignedUrl(client(), new PutObjectCommand({ Bucket: 'b', Key: 'up load+1' }), {
      expiresIn: 60,
    });
    const res = await fetch(url, { method: 'PUT', body: 'hello presigned' });
    expect(res.status).toBe(200);
    expect(server.records.at(-1)?.body?.toString()).toBe('hello presigned');
  });

  it('a URL signed with the wrong secret answers 403 SignatureDoesNotMatch', async () => {
    const url = await getSignedUrl(
      client(server.endpoint, 'us-east-1', 'wrong'),
      new GetObjectCommand({ Bucket: 'b', Key: 'k' }),
    );
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  });

  it('expires after X-Amz-Expires seconds', async () => {
    const input = await presignedInput({ expiresIn: 60 });
    await expect(
      authenticate({ ...input, now: new Date(input.now.getTime() + 59_000) }, store, opts),
    ).resolves.toBeDefined();
    const err = await failure({ ...input, now: new Date(input.now.getTime() + 61_000) });
    expect([err.code, err.message]).toEqual(['AccessDenied', 'Request has expired.']);
  });

  it('is not valid before X-Amz-Date (beyond the allowed skew)', async () => {
    const input = await presignedInput();
    const err = await failure({ ...input, now: new Date(input.now.getTime() - 3_600_000) });
    expect([err.code, err.message]).toEqual(['AccessDenied', 'Request is not valid yet.']);
  });

  it.each([
    'X-Amz-Algorithm',
    'X-Amz-Credential',
    'X-Amz-Signature',
    'X-Amz-Date',
    'X-Amz-SignedHeaders',
    'X-Amz-Expires',
  ])('answers AuthorizationQueryParametersError without %s', async (name) => {
    const input = withQuery(await presignedInput(), (q) => q.delete(name));
    const err = await failure(input);
    expect(err.code).toBe('AuthorizationQueryParametersError');
    expect(err.message).toMatch(/^Query-string authentication version 4 requires/);
  });

  it('limits X-Amz-Expires to one week and refuses negative values with 403 AccessDenied, as AWS', async () => {
    const input = await presignedInput();
    const tooLong = await failure(withQuery(input, (q) => q.set('X-Amz-Expires', '604801')));
    expect([tooLong.code, tooLong.status, tooLong.message]).toEqual([
      'AccessDenied',
      403,
      'X-Amz-Expires must be less than a week (in seconds) that is; the maximum expires is 604800 seconds.',
    ]);
    const negative = await failure(withQuery(input, (q) => q.set('X-Amz-Expires', '-1')));
    expect([negative.code, negative.status, negative.message]).toEqual([
      'AccessDenied',
      403,
      'X-Amz-Expires must be non-negative',
    ]);
    const limited = await authenticate(
      withQuery(input, (q) => q.set('X-Amz-Expires', '3600')),
      store,
      { ...opts, maxPresignSeconds: 600 },
    ).catch((e: S3Error) => e);
    expect((limited as S3Error).code).toBe('AccessDenied');
  });

  it('a week-long URL is accepted at the SDK maximum', async () => {
    const input = await presignedInput({ expiresIn: 604800 });
    await expect(
      authenticate({ ...input, now: new Date(input.now.getTime() + 604_000_000) }, store, opts),
    ).resolves.toBeDefined();
  });

  it('detects tampering with the path, the query or the signature', async () => {
    const input = await presignedInput({ key: 'k' });
    expect((await failure({ ...input, rawPath: '/b/other' })).code).toBe('SignatureDoesNotMatch');
    expect((await failure({ ...input, rawQuery: `${input.rawQuery}&versionId=1` })).code).toBe(
      'SignatureDoesNotMatch',
    );
    expect((await failure(withQuery(input, (q) => q.set('X-Amz-Expires', '901')))).code).toBe(
      'SignatureDoesNotMatch',
    );
    expect((await failure(withQuery(input, (q) => q.set('X-Amz-Signature', '0'.repeat(64))))).code).toBe(
      'SignatureDoesNotMatch',
    );
    expect((await failure({ ...input, headers: { host: 'evil.example' } })).code).toBe(
      'SignatureDoesNotMatch',
    );
  });

  it('reports an unknown key, another algorithm, another region and a malformed credential', async () => {
    const input = await presignedInput();
    expect(
      (
        await failure(
          withQuery(input, (q) =>
            q.set('X-Amz-Credential', q.get('X-Amz-Credential')?.replace(ACCESS, 'NOPE') ?? ''),
          ),
        )
      ).code,
    ).toBe('InvalidAccessKeyId');
    expect(
      (await failure(withQuery(input, (q) => q.set('X-Amz-Algorithm', 'AWS4-ECDSA-P256-SHA256')))).message,
    ).toBe('The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.');
    const region = await failure(await presignedInput({ c: client(server.endpoint, 'eu-west-1') }));
    expect([region.code, region.message]).toEqual([
      'AuthorizationQueryParametersError',
      "Error parsing the X-Amz-Credential parameter; the region 'eu-west-1' is wrong; expecting 'us-east-1'",
    ]);
    expect((await failure(withQuery(input, (q) => q.set('X-Amz-Credential', 'garbage')))).code).toBe(
      'AuthorizationQueryParametersError',
    );
    expect((await failure(withQuery(input, (q) => q.set('X-Amz-Date', '2026-11-29')))).code).toBe(
      'AuthorizationQueryParametersError',
    );
  });
});
