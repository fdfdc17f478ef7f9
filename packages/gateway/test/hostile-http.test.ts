// Hostile requests over HTTP against a gateway on a posix temp root: path traversal in the raw
// request-target (.., encoded and double-encoded dots and slashes, NUL, absolute-form) never
// reads or writes a file planted next to the root; and the limits S3 sets are enforced, each
// with its 4xx code: header size, user metadata (2 KB), key length (1024 bytes, in a path and
// inside DeleteObjects), part numbers and part lists, XML body size, DeleteObjects and tag
// counts. Inputs that once answered 500 (a response-* override that cannot be a header, an admin
// operation named like an Object.prototype member) answer an S3 4xx.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS,
  ADMIN_ACCESS,
  ADMIN_SECRET,
  SECRET,
  startGateway,
  type TestGateway,
} from './support/harness.js';
import { raw, xmlField } from './support/raw-http.js';
import { signedRaw } from './support/signed-raw.js';

const PLANTED = 'planted next to the root: never served';
let gw: TestGateway;
let dir: string;
let root: string;

const call = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  signedRaw(gw.url, ACCESS, SECRET, { method, path, headers, ...(body === undefined ? {} : { body }) });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gw-hostile-'));
  root = join(dir, 'root');
  await writeFile(join(dir, 'secret'), PLANTED);
  gw = await startGateway(await PosixBackend.open({ root }));
  expect((await call('PUT', '/hostile')).status).toBe(200);
  expect((await call('PUT', '/hostile/inside', {}, 'inside')).status).toBe(200);
});
afterAll(async () => {
  await gw.close();
  await rm(dir, { recursive: true, force: true });
});

describe('path traversal in the request-target', () => {
  const TARGETS = [
    '/hostile/../secret',
    '/hostile/../../secret',
    '/hostile/%2e%2e/secret',
    '/hostile/%2E%2E/%2E%2E/secret',
    '/hostile/..%2fsecret',
    '/hostile/..%2F..%2Fsecret',
    '/hostile/%252e%252e/secret',
    '/hostile/.%2e/secret',
    '/hostile/%00',
    '/hostile/a%00/../../secret',
    '/%2e%2e/secret',
    '/../secret',
    '/hostile//../secret',
    '/hostile/%2Fetc%2Fpasswd',
    'http://127.0.0.1/hostile/../../secret',
  ];
  for (const target of TARGETS) {
    it(`${target}: no read, no write outside the root`, async () => {
      for (const method of ['GET', 'HEAD', 'PUT', 'DELETE']) {
        const res = await raw(gw.url, {
          method,
          path: target,
          headers: method === 'PUT' ? { 'content-length': '7' } : {},
          ...(method === 'PUT' ? { body: 'dropped' } : {}),
        });
        expect(res.body).not.toContain(PLANTED);
        expect(res.status, `${method} ${target}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      expect((await readFile(join(dir, 'secret'))).toString()).toBe(PLANTED);
      expect((await readdir(dir)).sort()).toEqual(['root', 'secret']);
    });
  }
});

interface LimitRow {
  name: string;
  send: () => Promise<{ status: number; body: string }>;
  status: number;
  code?: string;
}

const meta = (bytes: number) => ({ 'x-amz-meta-m': 'v'.repeat(bytes - 1) }); // name 'm' + value
const deleteXml = (n: number) =>
  `<Delete>${Array.from({ length: n }, (_, i) => `<Object><Key>k${i}</Key></Object>`).join('')}</Delete>`;
const md5 = (s: string) => createHash('md5').update(s).digest('base64');
/** DeleteObjects with this XML body and its Content-MD5. */
const deleteObjects = (xml: string) => call('POST', '/hostile?delete', { 'content-md5': md5(xml) }, xml);
const parts = (n: number) =>
  `<CompleteMultipartUpload>${Array.from({ length: n }, (_, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>"${'0'.repeat(32)}"</ETag></Part>`).join('')}</CompleteMultipartUpload>`;

/** A key of `bytes` bytes in path segments of at most 200 (file names stop at 255 bytes). */
const longKey = (bytes: number) => `${'k'.repeat(200)}/`.repeat(4) + 'k'.repeat(bytes - 804);
let uploadId = '';
const ROWS: LimitRow[] = [
  {
    name: 'metadata of exactly 2 KB is accepted',
    send: () => call('PUT', '/hostile/m1', meta(2048), 'x'),
    status: 200,
  },
  {
    name: 'metadata over 2 KB: MetadataTooLarge',
    send: () => call('PUT', '/hostile/m2', meta(2049), 'x'),
    status: 400,
    code: 'MetadataTooLarge',
  },
  {
    name: 'a 1024-byte key is accepted',
    send: () => call('PUT', `/hostile/${longKey(1024)}`, {}, 'x'),
    status: 200,
  },
  {
    name: 'a 1025-byte key: KeyTooLongError',
    send: () => call('PUT', `/hostile/${longKey(1025)}`, {}, 'x'),
    status: 400,
    code: 'KeyTooLongError',
  },
  {
    name: 'a 1025-byte key in UTF-8 bytes (342 × 3): KeyTooLongError',
    send: () => call('PUT', `/hostile/${encodeURIComponent('€'.repeat(342))}`, {}, 'x'),
    status: 400,
    code: 'KeyTooLongError',
  },
  {
    name: 'request headers over 16 KiB: 431, the connection refused before any handler',
    send: () => raw(gw.url, { path: '/hostile/inside', headers: { 'x-big': 'b'.repeat(17 * 1024) } }),
    status: 431,
  },
  {
    name: 'part number 0: InvalidArgument',
    send: () => call('PUT', `/hostile/mp?partNumber=0&uploadId=${uploadId}`, {}, 'p'),
    status: 400,
    code: 'InvalidArgument',
  },
  {
    name: 'part number 10001: InvalidArgument',
    send: () => call('PUT', `/hostile/mp?partNumber=10001&uploadId=${uploadId}`, {}, 'p'),
    status: 400,
    code: 'InvalidArgument',
  },
  {
    name: 'a part list of 10001 parts: refused',
    send: () => call('POST', `/hostile/mp?uploadId=${uploadId}`, {}, parts(10_001)),
    status: 400,
    code: 'InvalidPart',
  },
  {
    name: 'an XML body over 4 MiB: MaxMessageLengthExceeded',
    send: () =>
      call(
        'POST',
        '/hostile?delete',
        { 'content-md5': md5('x') },
        `<Delete>${' '.repeat(4 * 1024 * 1024)}</Delete>`,
      ),
    status: 400,
    code: 'MaxMessageLengthExceeded',
  },
  {
    name: 'DeleteObjects with 1001 keys: MalformedXML',
    send: () => deleteObjects(deleteXml(1001)),
    status: 400,
    code: 'MalformedXML',
  },
  {
    name: 'DeleteObjects with 1000 keys is accepted',
    send: () => deleteObjects(deleteXml(1000)),
    status: 200,
  },
  {
    name: 'DeleteObjects naming a 3 MiB key: KeyTooLongError, the key not echoed',
    send: async () => {
      const res = await deleteObjects(
        `<Delete><Object><Key>${'k'.repeat(3 * 1024 * 1024)}</Key></Object></Delete>`,
      );
      expect(res.body.length).toBeLessThan(4096);
      return res;
    },
    status: 400,
    code: 'KeyTooLongError',
  },
  {
    name: 'DeleteObjects naming a 1025-byte key: KeyTooLongError',
    send: () =>
      deleteObjects(
        `<Delete><Object><Key>inside</Key></Object><Object><Key>${'k'.repeat(1025)}</Key></Object></Delete>`,
      ),
    status: 400,
    code: 'KeyTooLongError',
  },
  {
    name: 'DeleteObjects naming a 2 KiB version id: InvalidArgument',
    send: () =>
      deleteObjects(
        `<Delete><Object><Key>inside</Key><VersionId>${'v'.repeat(2048)}</VersionId></Object></Delete>`,
      ),
    status: 400,
    code: 'InvalidArgument',
  },
  ...(['GET', 'HEAD'] as const).flatMap((method): LimitRow[] => [
    {
      name: `${method} response-content-disposition with CR LF (header injection): InvalidArgument`,
      send: () =>
        call(method, '/hostile/inside?response-content-disposition=attachment%0D%0ASet-Cookie%3A%20a%3Db'),
      status: 400,
      ...(method === 'GET' ? { code: 'InvalidArgument' } : {}),
    },
    {
      name: `${method} response-content-type beyond Latin-1: InvalidArgument`,
      send: () => call(method, '/hostile/inside?response-content-type=text%2F%E2%82%AC'),
      status: 400,
      ...(method === 'GET' ? { code: 'InvalidArgument' } : {}),
    },
  ]),
  {
    name: 'response-cache-control with a NUL: InvalidArgument',
    send: () => call('GET', '/hostile/inside?response-cache-control=a%00b'),
    status: 400,
    code: 'InvalidArgument',
  },
  {
    name: 'response-content-disposition in Latin-1 is served',
    send: async () => {
      const res = await call('GET', '/hostile/inside?response-content-disposition=caf%C3%A9');
      expect(Buffer.from(String(res.headers['content-disposition']), 'latin1').toString('latin1')).toBe(
        'café',
      );
      return res;
    },
    status: 200,
  },
  {
    name: 'admin PATCH /constructor (an Object.prototype member): NotImplemented as any unknown operation, not a 500',
    send: async () => {
      const res = await signedRaw(gw.url, ADMIN_ACCESS, ADMIN_SECRET, {
        method: 'PATCH',
        path: '/constructor',
      });
      expect(res.headers['content-type']).toBe('application/xml');
      return res;
    },
    status: 501,
    code: 'NotImplemented',
  },
  {
    name: '11 object tags: InvalidTag',
    send: () =>
      call(
        'PUT',
        '/hostile/inside?tagging',
        {},
        `<Tagging><TagSet>${Array.from({ length: 11 }, (_, i) => `<Tag><Key>t${i}</Key><Value>v</Value></Tag>`).join('')}</TagSet></Tagging>`,
      ),
    status: 400,
    code: 'InvalidTag',
  },
];

describe('limits', () => {
  beforeAll(async () => {
    const res = await call('POST', '/hostile/mp?uploads');
    uploadId = xmlField(res.body, 'UploadId') ?? '';
    expect(uploadId).not.toBe('');
  });
  for (const row of ROWS) {
    it(row.name, async () => {
      const res = await row.send();
      expect({ status: res.status, code: xmlField(res.body, 'Code') }, res.body.slice(0, 300)).toEqual({
        status: row.status,
        code: row.code,
      });
    });
  }
});
