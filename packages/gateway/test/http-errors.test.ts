// Error answers over raw HTTP: the XML shape, status codes, name/length/metadata checks, header
// validation, and what happens when a request is refused while its body is still coming.
import { connect } from 'node:net';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS, SECRET, startGateway, type TestGateway } from './support/harness.js';
import { raw, xmlField } from './support/raw-http.js';
import { signedRaw } from './support/signed-raw.js';

let backend: MemoryBackend;
let gw: TestGateway;
let closed: TestGateway;
let readonlyGw: TestGateway;

beforeAll(async () => {
  backend = new MemoryBackend();
  gw = await startGateway(backend, { anonymousAccess: true });
  closed = await startGateway(backend, { healthPath: '/healthz' });
  readonlyGw = await startGateway(backend, { readonly: true, anonymousAccess: true });
  await gw.client.send(new CreateBucketCommand({ Bucket: 'raw' }));
  await gw.client.send(new PutObjectCommand({ Bucket: 'raw', Key: 'present', Body: '0123456789' }));
});
afterAll(async () => {
  await Promise.all([gw.close(), closed.close(), readonlyGw.close()]);
});

/** An unsigned PUT over raw HTTP (to the anonymous gateway unless `on` says otherwise). */
const put = (path: string, headers: Record<string, string>, body = 'abc', on = gw) =>
  raw(on.url, { method: 'PUT', path, headers, body });

describe('error documents', () => {
  it('carry Code, Message, Resource and RequestId, matching x-amz-request-id', async () => {
    const res = await raw(gw.url, { path: '/raw/no%20such' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/xml');
    expect(xmlField(res.body, 'Code')).toBe('NoSuchKey');
    expect(xmlField(res.body, 'Message')).toBe('The specified key does not exist.');
    expect(xmlField(res.body, 'Resource')).toBe('/raw/no such');
    expect(res.headers['x-amz-request-id']).toMatch(/^[0-9A-F]{16}$/);
    expect(xmlField(res.body, 'RequestId')).toBe(res.headers['x-amz-request-id']);
    expect(res.headers['x-amz-id-2']).toBeTruthy();
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Error>')).toBe(true);
  });

  it('are omitted for HEAD, which keeps the status', async () => {
    const res = await raw(gw.url, { method: 'HEAD', path: '/raw/absent' });
    expect(res.status).toBe(404);
    expect(res.body).toBe('');
    expect(res.headers['x-amz-request-id']).toBeTruthy();
  });

  it('answer NoSuchBucket for a missing bucket', async () => {
    const res = await raw(gw.url, { path: '/missing-bucket/k' });
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([404, 'NoSuchBucket']);
  });
});

describe('request validation', () => {
  it.each(['ab', 'Upper', '192.168.0.1', 'a..b', 'xn--abc', 'bad_name'])(
    'refuses bucket name %s',
    async (name) => {
      const res = await raw(gw.url, { path: `/${name}/k` });
      expect([res.status, xmlField(res.body, 'Code')]).toEqual([400, 'InvalidBucketName']);
    },
  );

  it('refuses keys over 1024 bytes and accepts 1024', async () => {
    const long = await raw(gw.url, { path: `/raw/${'k'.repeat(1025)}` });
    expect([long.status, xmlField(long.body, 'Code')]).toEqual([400, 'KeyTooLongError']);
    const max = await raw(gw.url, { path: `/raw/${'k'.repeat(1024)}` });
    expect(xmlField(max.body, 'Code')).toBe('NoSuchKey');
  });

  it('refuses user metadata over 2 KB', async () => {
    const res = await put('/raw/meta', { 'x-amz-meta-big': 'x'.repeat(2100), 'content-length': '1' }, 'x');
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([400, 'MetadataTooLarge']);
  });

  it('stores a chunked PUT without Content-Length', async () => {
    const res = await put('/raw/nolen', { 'transfer-encoding': 'chunked' });
    expect(res.status).toBe(200);
    expect((await raw(gw.url, { path: '/raw/nolen' })).body).toBe('abc');
  });

  it('refuses a PUT with neither Content-Length nor chunked framing', async () => {
    // node:http always frames a PUT body; a socket can send the bare request.
    const answer = await new Promise<string>((resolve, reject) => {
      const url = new URL(gw.url);
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.end(`PUT /raw/bare HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.setEncoding('utf8').on('data', (c: string) => {
        text += c;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 411 Length Required');
    expect(xmlField(answer, 'Code')).toBe('MissingContentLength');
  });

  it('refuses a single PUT over 5 GiB before reading the body, and closes the connection', async () => {
    const res = await raw(gw.url, {
      method: 'PUT',
      path: '/raw/huge',
      headers: { 'content-length': String(5 * 1024 ** 3 + 1) },
      partialBody: Buffer.alloc(64 * 1024),
    });
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([400, 'EntityTooLarge']);
    expect(res.headers.connection).toBe('close');
  });

  it('answers a refusal that comes before the body is read, then closes the connection', async () => {
    const res = await raw(gw.url, {
      method: 'PUT',
      path: '/no-such-bucket/k',
      headers: { 'content-length': String(32 * 1024 * 1024) },
      partialBody: Buffer.alloc(256 * 1024),
    });
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([404, 'NoSuchBucket']);
    expect(res.headers.connection).toBe('close');
  });

  it('refuses a LocationConstraint other than the gateway region', async () => {
    const body =
      '<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>eu-west-1</LocationConstraint></CreateBucketConfiguration>';
    const res = await signedRaw(gw.url, ACCESS, SECRET, { method: 'PUT', path: '/elsewhere', body });
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([400, 'InvalidLocationConstraint']);
    expect(backend.buckets.has('elsewhere')).toBe(false);
    const same = await signedRaw(gw.url, ACCESS, SECRET, {
      method: 'PUT',
      path: '/here',
      body: body.replace('eu-west-1', 'us-east-1'),
    });
    expect(same.status).toBe(200);
    expect(same.headers.location).toBe('/here');
  });

  it('answers NotImplemented for unsupported sub-resources, and a bare OPTIONS as a preflight without Origin', async () => {
    const life = await raw(gw.url, { path: '/raw?lifecycle' });
    expect([life.status, xmlField(life.body, 'Code')]).toEqual([501, 'NotImplemented']);
    const opts = await raw(gw.url, { method: 'OPTIONS', path: '/raw/k' });
    expect([opts.status, xmlField(opts.body, 'Code'), xmlField(opts.body, 'Message')]).toEqual([
      400,
      'BadRequest',
      'Insufficient information. Origin request header needed.',
    ]);
    const unknown = await raw(gw.url, { method: 'PROPFIND', path: '/raw/k' });
    expect([unknown.status, xmlField(unknown.body, 'Code')]).toEqual([405, 'MethodNotAllowed']);
    const versionsOnKey = await raw(gw.url, { path: '/raw/present?versions' });
    expect(xmlField(versionsOnKey.body, 'Message')).toBe(
      'There is no such thing as the ?versions sub-resource for a key',
    );
  });

  it('answers MalformedXML for bad request documents', async () => {
    const res = await put('/raw/present?tagging', {}, '<Tagging><TagSet><Tag>');
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([400, 'MalformedXML']);
    const wrongRoot = await put('/raw/present?tagging', {}, '<Other/>');
    expect(xmlField(wrongRoot.body, 'Code')).toBe('MalformedXML');
  });

  it('requires Content-MD5 or a checksum on DeleteObjects, and checks it', async () => {
    const body = '<Delete><Object><Key>present</Key></Object></Delete>';
    const deleteObjects = (headers?: Record<string, string>) =>
      raw(gw.url, { method: 'POST', path: '/raw?delete', body, ...(headers ? { headers } : {}) });
    const none = await deleteObjects();
    expect(xmlField(none.body, 'Message')).toBe(
      'Missing required header for this request: Content-MD5 OR x-amz-checksum-*',
    );
    const wrong = await deleteObjects({ 'content-md5': '1B2M2Y8AsgTpgAmY7PhCfg==' });
    expect(xmlField(wrong.body, 'Code')).toBe('BadDigest');
    expect(backend.bucket('raw').objects.has('present')).toBe(true);
    // A checksum header is checked against the XML body too, and its error names the algorithm.
    const wrongCrc = await deleteObjects({ 'x-amz-checksum-crc32': 'AAAAAA==' });
    expect([xmlField(wrongCrc.body, 'Code'), xmlField(wrongCrc.body, 'Message')]).toEqual([
      'BadDigest',
      'The CRC32 you specified did not match the calculated checksum.',
    ]);
    expect(backend.bucket('raw').objects.has('present')).toBe(true);
  });

  // Content-MD5's shape and value, and a checksum header's value checked through the backend.
  it.each([
    ['a malformed Content-MD5', 'md5-shape', { 'content-md5': 'nope' }, 'InvalidDigest'],
    ['a wrong Content-MD5', 'md5', { 'content-md5': '1B2M2Y8AsgTpgAmY7PhCfg==' }, 'BadDigest'],
    ['a wrong x-amz-checksum-crc32', 'ck2-wrong', { 'x-amz-checksum-crc32': 'AAAAAA==' }, 'BadDigest'],
  ])('refuses a PUT with %s, storing nothing', async (_what, key, headers, code) => {
    const res = await put(`/raw/${key}`, headers);
    expect(xmlField(res.body, 'Code')).toBe(code);
    expect(backend.bucket('raw').objects.has(key)).toBe(false);
  });

  it.each([
    [
      { 'x-amz-checksum-crc32': 'AAAAAA==', 'x-amz-checksum-sha1': 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
      'Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.',
    ],
    [
      { 'x-amz-checksum-md4': 'AAAA' },
      'The algorithm type you specified in x-amz-checksum- header is invalid.',
    ],
    [
      { 'x-amz-sdk-checksum-algorithm': 'CRC32' },
      'x-amz-sdk-checksum-algorithm specified, but no corresponding x-amz-checksum-* or x-amz-trailer headers were found.',
    ],
    [
      { 'x-amz-sdk-checksum-algorithm': 'XOR8', 'x-amz-checksum-crc32': 'AAAAAA==' },
      'Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, CRC64NVME, MD5, SHA1, SHA256, SHA512, XXHASH128, XXHASH3, XXHASH64]',
    ],
  ])('validates checksum headers %o', async (headers, message) => {
    const res = await put('/raw/ck', headers);
    expect([res.status, xmlField(res.body, 'Code'), xmlField(res.body, 'Message')]).toEqual([
      400,
      'InvalidRequest',
      message,
    ]);
  });

  it('stores a PUT whose checksum header matches, echoing it', async () => {
    const right = await put('/raw/ck2', { 'x-amz-checksum-crc32': 'NSRBwg==' });
    expect(right.status).toBe(200);
    expect(right.headers['x-amz-checksum-crc32']).toBe('NSRBwg==');
  });

  it('rejects an aws-chunked body whose trailer checksum does not match, storing nothing', async () => {
    const body = '3\r\nabc\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n';
    const res = await put(
      '/raw/trailer',
      {
        'content-encoding': 'aws-chunked',
        'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
        'x-amz-decoded-content-length': '3',
        'x-amz-trailer': 'x-amz-checksum-crc32',
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    );
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([400, 'BadDigest']);
    expect(backend.bucket('raw').objects.has('trailer')).toBe(false);
  });

  it('refuses response-* overrides on anonymous GETs', async () => {
    const res = await raw(gw.url, { path: '/raw/present?response-content-type=text/plain' });
    expect(xmlField(res.body, 'Message')).toBe(
      'Request specific response headers cannot be used for anonymous GET requests.',
    );
  });

  it('answers InvalidArgument for a non-numeric max-keys', async () => {
    const res = await raw(gw.url, { path: '/raw?max-keys=lots' });
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([400, 'InvalidArgument']);
  });
});

describe('access', () => {
  it('refuses unsigned requests unless anonymous access is on', async () => {
    const res = await raw(closed.url, { path: '/raw/present' });
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([403, 'AccessDenied']);
  });

  it('answers the health path without authentication', async () => {
    const res = await raw(closed.url, { path: '/healthz' });
    expect(res.status).toBe(200);
    expect(res.headers['x-amz-request-id']).toBeTruthy();
  });

  it('refuses writes in read-only mode but serves reads', async () => {
    const refused = await put('/raw/ro', { 'content-length': '1' }, 'x', readonlyGw);
    expect([refused.status, xmlField(refused.body, 'Code')]).toEqual([403, 'AccessDenied']);
    const get = await raw(readonlyGw.url, { path: '/raw/present' });
    expect([get.status, get.body]).toEqual([200, '0123456789']);
  });

  it('refuses admin operations to non-admin accounts', async () => {
    const res = await raw(gw.url, { method: 'PATCH', path: '/?list-buckets-and-owners' });
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([403, 'XAdminAccessDenied']);
  });
});
