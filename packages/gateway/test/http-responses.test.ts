// Success answers over raw HTTP: HEAD lengths, ranges, 304s, listing XML with encoding-type=url,
// max-keys clamping, request ids on every response.
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/harness.js';
import { posixBackend } from './support/posix.js';
import { raw, xmlField } from './support/raw-http.js';

const BACKENDS = {
  memory: async () => ({ backend: new MemoryBackend(), cleanup: async () => {} }),
  posix: posixBackend,
};

describe.each(Object.keys(BACKENDS) as (keyof typeof BACKENDS)[])('raw responses over %s', (name) => {
  let gw: TestGateway;
  let etag: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const made = await BACKENDS[name]();
    cleanup = made.cleanup;
    gw = await startGateway(made.backend, { anonymousAccess: true });
    await gw.client.send(new CreateBucketCommand({ Bucket: 'resp' }));
    const put = await gw.client.send(
      new PutObjectCommand({ Bucket: 'resp', Key: 'obj', Body: 'abcdefghij' }),
    );
    etag = put.ETag ?? '';
    for (const Key of ['dir one/a&b', 'dir one/c', 'x\u0001y', 'plain']) {
      await gw.client.send(new PutObjectCommand({ Bucket: 'resp', Key, Body: 'k' }));
    }
  });
  afterAll(async () => {
    await gw.close();
    await cleanup();
  });

  describe('object reads', () => {
    it('answers HEAD with the real Content-Length and no body', async () => {
      const res = await raw(gw.url, { method: 'HEAD', path: '/resp/obj' });
      expect(res.status).toBe(200);
      expect(res.headers['content-length']).toBe('10');
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['last-modified']).toMatch(
        /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
      );
      expect(res.body).toBe('');
    });

    it('answers a range GET with 206 and Content-Range, and HEAD with the range length', async () => {
      const res = await raw(gw.url, { path: '/resp/obj', headers: { range: 'bytes=3-' } });
      expect([res.status, res.body, res.headers['content-range'], res.headers['content-length']]).toEqual([
        206,
        'defghij',
        'bytes 3-9/10',
        '7',
      ]);
      const head = await raw(gw.url, { method: 'HEAD', path: '/resp/obj', headers: { range: 'bytes=0-1' } });
      expect([head.status, head.headers['content-length']]).toEqual([206, '2']);
      const bad = await raw(gw.url, { path: '/resp/obj', headers: { range: 'bytes=10-' } });
      expect([bad.status, xmlField(bad.body, 'Code'), xmlField(bad.body, 'ActualObjectSize')]).toEqual([
        416,
        'InvalidRange',
        '10',
      ]);
    });

    it('answers 304 without a body but with the validators', async () => {
      const res = await raw(gw.url, { path: '/resp/obj', headers: { 'if-none-match': etag } });
      expect(res.status).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      const since = await raw(gw.url, {
        path: '/resp/obj',
        headers: { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() },
      });
      expect(since.status).toBe(304);
      const pf = await raw(gw.url, { path: '/resp/obj', headers: { 'if-match': '"different"' } });
      expect([pf.status, xmlField(pf.body, 'Code')]).toEqual([412, 'PreconditionFailed']);
    });

    it('refuses a Range together with partNumber', async () => {
      const res = await raw(gw.url, { path: '/resp/obj?partNumber=1', headers: { range: 'bytes=0-1' } });
      expect(xmlField(res.body, 'Message')).toBe(
        'Cannot specify both Range header and partNumber query parameter',
      );
    });

    it('puts request ids on successful responses too', async () => {
      const res = await raw(gw.url, { path: '/resp/obj' });
      expect(res.body).toBe('abcdefghij');
      expect(res.headers['x-amz-request-id']).toMatch(/^[0-9A-F]{16}$/);
      expect(res.headers['x-amz-id-2']).toBeTruthy();
    });
  });

  describe('listing XML', () => {
    it('URL-encodes keys, prefixes and delimiters with encoding-type=url', async () => {
      const res = await raw(gw.url, { path: '/resp?list-type=2&encoding-type=url&prefix=dir%20one%2F' });
      expect(res.status).toBe(200);
      expect(res.body).toContain('<EncodingType>url</EncodingType>');
      expect(res.body).toContain('<Prefix>dir%20one/</Prefix>');
      expect(res.body).toContain('<Key>dir%20one/a%26b</Key>');
      expect(res.body).toContain('<Key>dir%20one/c</Key>');
      const v1 = await raw(gw.url, { path: '/resp?encoding-type=url&delimiter=%20' });
      expect(v1.body).toContain('<Delimiter>%20</Delimiter>');
      expect(v1.body).toContain('<CommonPrefixes><Prefix>dir%20</Prefix></CommonPrefixes>');
      expect(v1.body).toContain('<Key>x%01y</Key>');
    });

    it('escapes keys as XML text without encoding-type', async () => {
      const res = await raw(gw.url, { path: '/resp?list-type=2&prefix=dir' });
      expect(res.body).toContain('<Key>dir one/a&amp;b</Key>');
      expect(res.body).not.toContain('<EncodingType>');
    });

    it('clamps max-keys to 1000 and answers the namespaced document', async () => {
      const res = await raw(gw.url, { path: '/resp?list-type=2&max-keys=5000' });
      expect(xmlField(res.body, 'MaxKeys')).toBe('1000');
      expect(res.body).toContain('<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">');
      expect(xmlField(res.body, 'KeyCount')).toBe('5');
    });

    it('writes dates in ISO-8601 with milliseconds', async () => {
      const res = await raw(gw.url, { path: '/resp?list-type=2&prefix=obj' });
      expect(xmlField(res.body, 'LastModified')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });
  });
});
