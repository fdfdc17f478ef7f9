// CORS: rules stored with PutBucketCors decide OPTIONS preflights (200 with Access-Control-*
// headers, or 403 AccessForbidden with the catalogue's messages) and add headers to actual
// requests that carry an Origin.
import {
  CreateBucketCommand,
  DeleteBucketCorsCommand,
  PutBucketCorsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, type MultiUserGateway, startMultiUser } from './support/multi-user.js';
import { raw, xmlField } from './support/raw-http.js';
import { signedRaw } from './support/signed-raw.js';

describe('CORS', () => {
  let gw: MultiUserGateway;
  const Bucket = 'web';
  const preflight = (headers: Record<string, string>) =>
    raw(gw.url, { method: 'OPTIONS', path: `/${Bucket}/page.html`, headers });
  beforeAll(async () => {
    gw = await startMultiUser();
    await gw.alice.send(new CreateBucketCommand({ Bucket }));
    await gw.alice.send(new PutObjectCommand({ Bucket, Key: 'page.html', Body: '<p>hi</p>' }));
  });
  afterAll(async () => gw.close());

  it('asks for an Origin when a preflight lacks one', async () => {
    const res = await preflight({ 'access-control-request-method': 'GET' });
    expect([res.status, xmlField(res.body, 'Message')]).toEqual([
      400,
      'Insufficient information. Origin request header needed.',
    ]);
  });

  it('asks for the method when a preflight names none', async () => {
    const res = await preflight({ origin: 'https://app.example.com' });
    expect([res.status, xmlField(res.body, 'Code'), xmlField(res.body, 'Message')]).toEqual([
      400,
      'BadRequest',
      'Invalid Access-Control-Request-Method: null',
    ]);
  });

  it('refuses preflights when the bucket has no CORS configuration', async () => {
    const res = await preflight({
      origin: 'https://app.example.com',
      'access-control-request-method': 'GET',
    });
    expect([res.status, xmlField(res.body, 'Code'), xmlField(res.body, 'Message')]).toEqual([
      403,
      'AccessForbidden',
      'CORSResponse: CORS is not enabled for this bucket.',
    ]);
  });

  it('allows matching origins, methods and headers, and refuses the rest', async () => {
    await gw.alice.send(
      new PutBucketCorsCommand({
        Bucket,
        CORSConfiguration: {
          CORSRules: [
            {
              AllowedOrigins: ['https://*.example.com'],
              AllowedMethods: ['GET', 'PUT'],
              AllowedHeaders: ['x-amz-*', 'content-type'],
              ExposeHeaders: ['ETag'],
              MaxAgeSeconds: 600,
            },
          ],
        },
      }),
    );
    const ok = await preflight({
      origin: 'https://app.example.com',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'Content-Type, X-Amz-Meta-Color',
    });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(ok.headers['access-control-allow-methods']).toBe('GET, PUT');
    expect(ok.headers['access-control-allow-headers']).toBe('content-type, x-amz-meta-color');
    expect(ok.headers['access-control-max-age']).toBe('600');
    expect(ok.headers['access-control-expose-headers']).toBe('ETag');

    const refusals = [
      { origin: 'https://evil.test', 'access-control-request-method': 'GET' },
      { origin: 'https://app.example.com', 'access-control-request-method': 'DELETE' },
      {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization-x',
      },
    ];
    for (const headers of refusals) {
      const res = await preflight(headers);
      expect([res.status, xmlField(res.body, 'Code')]).toEqual([403, 'AccessForbidden']);
      expect(xmlField(res.body, 'Message')).toMatch(/^CORSResponse: This CORS request is not allowed\./);
    }
  });

  it('adds CORS headers to actual requests from an allowed origin only', async () => {
    const allowed = await signedRaw(gw.url, ALICE.access, ALICE.secret, {
      path: `/${Bucket}/page.html`,
      headers: { origin: 'https://app.example.com' },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(allowed.headers['access-control-expose-headers']).toBe('ETag');
    const other = await signedRaw(gw.url, ALICE.access, ALICE.secret, {
      path: `/${Bucket}/page.html`,
      headers: { origin: 'https://evil.test' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    // A DELETE is not allowed by the rule, unless it names an allowed method to stand for.
    const del = () =>
      signedRaw(gw.url, ALICE.access, ALICE.secret, {
        method: 'DELETE',
        path: `/${Bucket}/missing.html`,
        headers: { origin: 'https://app.example.com' },
      });
    expect((await del()).headers['access-control-allow-origin']).toBeUndefined();
    const standIn = await signedRaw(gw.url, ALICE.access, ALICE.secret, {
      method: 'DELETE',
      path: `/${Bucket}/missing.html`,
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
    });
    expect([
      standIn.headers['access-control-allow-origin'],
      standIn.headers['access-control-allow-methods'],
    ]).toEqual(['https://app.example.com', 'GET, PUT']);
  });

  it('stops allowing preflights once the configuration is deleted', async () => {
    await gw.alice.send(new DeleteBucketCorsCommand({ Bucket }));
    const res = await preflight({
      origin: 'https://app.example.com',
      'access-control-request-method': 'GET',
    });
    expect(xmlField(res.body, 'Message')).toBe('CORSResponse: CORS is not enabled for this bucket.');
  });
});
