// SigV4 tamper matrix over HTTP, against a gateway on a posix temp root (with the X-CuObj-* trio
// must-sign, as the RDMA plugin declares it: support/x-cuobj-signing.ts). Each row signs a request
// with the AWS SDK's signer, alters one thing (a signed header, the path, the query, the date, the
// payload hash, the body, a chunk signature, the Signature itself, ...) and sends it raw. Every
// row must be refused with S3's status and code, and a refused write must leave no file behind.
// Control rows (nothing altered) prove the same request is accepted untampered.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { makeTempDir, removeDir, Sha256 } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingKey } from '../src/auth/signing.js';
import { encodeAwsChunked } from '../src/body/test-support/aws-chunked-encoder.js';
import { ACCESS, SECRET, startGateway, type TestGateway } from './support/harness.js';
import { type RawRequest, raw, xmlField } from './support/raw-http.js';
import { X_CUOBJ_SIGNING } from './support/x-cuobj-signing.js';

const BUCKET = 'tamper';
const BODY = 'the signed payload';
const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const MIN = 60_000;
/** An ISO basic timestamp (20130524T000000Z) one minute on, the hour and day kept. */
const aMinuteOn = (d: string) =>
  d.slice(0, 13) + String((Number(d.slice(13, 15)) + 1) % 60).padStart(2, '0') + 'Z';

let gw: TestGateway;
let dir: string;
let root: string;
let host: string;

beforeAll(async () => {
  dir = await makeTempDir('gw-tamper-');
  root = join(dir, 'root');
  gw = await startGateway(await PosixBackend.open({ root }), { plugins: [X_CUOBJ_SIGNING] });
  host = new URL(gw.url).host;
  const made = await send(await signed({ method: 'PUT', path: `/${BUCKET}` }));
  expect(made.status).toBe(200);
});
afterAll(async () => {
  await gw.close();
  await removeDir(dir);
});

interface Signable {
  method: string;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  /** x-amz-content-sha256 to sign (default: the body's hash). */
  payloadHash?: string;
  date?: Date;
  secret?: string;
  /** Header names left out of the signature (sent all the same). */
  unsigned?: string[];
}

interface Wire {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string | Buffer;
}

function signer(secret = SECRET): SignatureV4 {
  return new SignatureV4({
    credentials: { accessKeyId: ACCESS, secretAccessKey: secret },
    region: 'us-east-1',
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
}

async function signed(s: Signable): Promise<Wire> {
  const body = s.body ?? '';
  const headers: Record<string, string> = {
    host,
    'x-amz-content-sha256': s.payloadHash ?? sha256(body),
    'content-length': String(Buffer.byteLength(body)),
    ...s.headers,
  };
  const out = await signer(s.secret).sign(
    {
      method: s.method,
      protocol: 'http:',
      hostname: '127.0.0.1',
      path: s.path,
      query: s.query ?? {},
      headers,
    },
    { signingDate: s.date ?? new Date(), unsignableHeaders: new Set(s.unsigned ?? []) },
  );
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(out.headers)) lower[k.toLowerCase()] = String(v);
  return { method: s.method, path: s.path, query: s.query ?? {}, headers: lower, body };
}

async function presigned(s: Signable & { expiresIn: number }): Promise<Wire> {
  const out = await signer().presign(
    {
      method: s.method,
      protocol: 'http:',
      hostname: '127.0.0.1',
      path: s.path,
      query: s.query ?? {},
      // x-amz-content-sha256 is hoisted into the query; other headers stay signed headers.
      headers: { host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', ...s.headers },
    },
    {
      signingDate: s.date ?? new Date(),
      expiresIn: s.expiresIn,
      unsignableHeaders: new Set(s.unsigned ?? []),
    },
  );
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(out.query ?? {})) query[k] = String(v);
  return { method: s.method, path: s.path, query, headers: { host, ...s.headers }, body: s.body ?? '' };
}

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
function send(w: Wire): ReturnType<typeof raw> {
  const qs = Object.entries(w.query)
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join('&');
  const req: RawRequest = {
    method: w.method,
    path: qs ? `${w.path}?${qs}` : w.path,
    headers: w.headers,
    body: w.body,
  };
  return raw(gw.url, req);
}

const auth = (w: Wire) => w.headers.authorization as string;
const setAuth = (w: Wire, f: (a: string) => string) => ({
  ...w,
  headers: { ...w.headers, authorization: f(auth(w)) },
});
const setHeader = (w: Wire, name: string, value: string | undefined) => {
  const headers = { ...w.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...w, headers };
};
const flipHex = (s: string) => s.slice(0, -1) + (s.endsWith('0') ? '1' : '0');
const withHeaders = (w: Wire, extra: Record<string, string>) => ({
  ...w,
  headers: { ...w.headers, ...extra },
});
/** The legacy RDMA trio (a well-formed DC v1 descriptor): refused unsigned before any RDMA. */
const LEGACY_TRIO = {
  'x-cuobj-rdma-descr': `${'0'.repeat(16)}:00001000:00000001:0001:000001:0:${'ab'.repeat(16)}`,
  'x-cuobj-content-length': '4096',
  'x-cuobj-remote-buf-start': '4096',
};

interface Row {
  name: string;
  key: string;
  make: (key: string) => Promise<Wire>;
  status: number;
  code?: string;
  message?: string;
}

/** A row whose alteration the signature catches: 403 SignatureDoesNotMatch. */
const mismatch = (name: string, key: string, make: Row['make']): Row => ({
  name,
  key,
  make,
  status: 403,
  code: 'SignatureDoesNotMatch',
});

const put = (key: string, extra: Partial<Signable> = {}) =>
  signed({
    method: 'PUT',
    path: `/${BUCKET}/${key}`,
    body: BODY,
    headers: { 'x-amz-meta-color': 'blue' },
    ...extra,
  });

const HEADER_ROWS: Row[] = [
  { name: 'control: untouched PUT', key: 'ok-put', make: (k) => put(k), status: 200 },
  mismatch('signed x-amz-meta header value', 'meta', async (k) =>
    setHeader(await put(k), 'x-amz-meta-color', 'red'),
  ),
  mismatch('signed header removed', 'meta-gone', async (k) =>
    setHeader(await put(k), 'x-amz-meta-color', undefined),
  ),
  mismatch('host header', 'host', async (k) =>
    setHeader(await put(k), 'host', `localhost:${new URL(gw.url).port}`),
  ),
  {
    name: 'unsigned x-amz-* header added',
    key: 'unsigned',
    make: async (k) => setHeader(await put(k), 'x-amz-acl', 'public-read'),
    status: 403,
    code: 'AccessDenied',
  },
  {
    name: 'unsigned legacy X-CuObj-* RDMA trio added',
    key: 'unsigned-trio',
    make: async (k) => withHeaders(await put(k), LEGACY_TRIO),
    status: 403,
    code: 'AccessDenied',
  },
  {
    name: 'host left out of the signed headers',
    key: 'unsigned-host',
    make: (k) => put(k, { unsigned: ['host'] }),
    status: 403,
    code: 'AccessDenied',
    message: 'There were headers present in the request which were not signed',
  },
  mismatch('SignedHeaders naming constructor (an Object.prototype member)', 'proto-constructor', async (k) =>
    setAuth(await put(k), (a) => a.replace('SignedHeaders=', 'SignedHeaders=constructor;')),
  ),
  mismatch('SignedHeaders naming __proto__', 'proto-proto', async (k) =>
    setAuth(await put(k), (a) => a.replace('SignedHeaders=', 'SignedHeaders=__proto__;')),
  ),
  {
    name: 'x-amz-content-sha256: constructor, signed',
    key: 'proto-sha',
    make: (k) => put(k, { payloadHash: 'constructor' }),
    status: 400,
    code: 'InvalidRequest',
  },
  mismatch('SignedHeaders list shortened', 'list', async (k) =>
    setAuth(await put(k), (a) => a.replace(';x-amz-meta-color', '')),
  ),
  mismatch('path (another key)', 'path', async (k) => ({ ...(await put(k)), path: `/${BUCKET}/${k}2` })),
  mismatch('path (another bucket)', 'bucket', async (k) => ({ ...(await put(k)), path: `/other/${k}` })),
  mismatch('query parameter added', 'query-add', async (k) => ({
    ...(await put(k)),
    query: { tagging: '' },
  })),
  mismatch('signed query value', 'query-val', async (k) => ({
    ...(await put(k, { query: { 'x-id': 'PutObject' } })),
    query: { 'x-id': 'PutObjecT' },
  })),
  mismatch('method', 'method', async (k) => ({ ...(await put(k)), method: 'DELETE' })),
  mismatch('x-amz-date, same day', 'date', async (k) => {
    const w = await put(k);
    return setHeader(w, 'x-amz-date', aMinuteOn(w.headers['x-amz-date'] as string));
  }),
  {
    name: 'x-amz-date, another day than the scope',
    key: 'date-day',
    make: async (k) => {
      const w = await put(k);
      return setHeader(w, 'x-amz-date', '20200101T000000Z');
    },
    status: 400,
    code: 'AuthorizationHeaderMalformed',
  },
  mismatch('payload hash header', 'hash', async (k) =>
    setHeader(await put(k), 'x-amz-content-sha256', sha256('other')),
  ),
  mismatch('payload hash to UNSIGNED-PAYLOAD', 'hash-unsigned', async (k) =>
    setHeader(await put(k), 'x-amz-content-sha256', 'UNSIGNED-PAYLOAD'),
  ),
  {
    name: 'body (hash left as signed)',
    key: 'body',
    make: async (k) => ({ ...(await put(k)), body: BODY.toUpperCase() }),
    status: 400,
    code: 'XAmzContentSHA256Mismatch',
  },
  mismatch('Signature, one hex digit', 'sig', async (k) => setAuth(await put(k), flipHex)),
  {
    name: 'access key in the credential',
    key: 'akid',
    make: async (k) => setAuth(await put(k), (a) => a.replace(ACCESS, 'AKIDSOMEONEELSE')),
    status: 403,
    code: 'InvalidAccessKeyId',
  },
  {
    name: 'region in the credential',
    key: 'region',
    make: async (k) => setAuth(await put(k), (a) => a.replace('/us-east-1/', '/eu-west-1/')),
    status: 400,
    code: 'AuthorizationHeaderMalformed',
  },
  mismatch('wrong secret', 'secret', (k) => put(k, { secret: 'not-the-secret' })),
  {
    name: 'control: signed 14 minutes ago',
    key: 'skew-ok',
    make: (k) => put(k, { date: new Date(Date.now() - 14 * MIN) }),
    status: 200,
  },
  {
    name: 'replay 16 minutes later (outside the skew window)',
    key: 'replay-old',
    make: (k) => put(k, { date: new Date(Date.now() - 16 * MIN) }),
    status: 403,
    code: 'RequestTimeTooSkewed',
  },
  {
    name: 'dated 16 minutes in the future',
    key: 'replay-future',
    make: (k) => put(k, { date: new Date(Date.now() + 16 * MIN) }),
    status: 403,
    code: 'RequestTimeTooSkewed',
  },
];

/** A signed aws-chunked PUT (STREAMING-AWS4-HMAC-SHA256-PAYLOAD), 3 chunks; `edit` alters the wire. */
async function streamingPut(key: string, edit: (pieces: Buffer[]) => void): Promise<Wire> {
  const data = Buffer.alloc(20_000, 7);
  const date = new Date();
  const day = formatDay(date);
  const scope = `${day}/us-east-1/s3/aws4_request`;
  const key4 = signingKey(SECRET, day, 'us-east-1', 's3');
  const encode = (seedSignature: string, amzDate: string) =>
    encodeAwsChunked(data, { chunkSize: 8192, signing: { seedSignature, signingKey: key4, amzDate, scope } })
      .pieces;
  // The framing's length does not depend on the signatures' values: sign it as Content-Length.
  const length = Buffer.concat(encode('0'.repeat(64), '')).length;
  const w = await signed({
    method: 'PUT',
    path: `/${BUCKET}/${key}`,
    payloadHash: 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
    headers: {
      'content-encoding': 'aws-chunked',
      'x-amz-decoded-content-length': String(data.length),
      'content-length': String(length),
    },
    date,
  });
  const seed = /Signature=([0-9a-f]{64})/.exec(auth(w))?.[1] as string;
  const pieces = encode(seed, w.headers['x-amz-date'] as string);
  edit(pieces);
  return { ...w, body: Buffer.concat(pieces) };
}

const formatDay = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');

const CHUNK_ROWS: Row[] = [
  {
    name: 'control: untouched signed aws-chunked PUT',
    key: 'chunked-ok',
    make: (k) => streamingPut(k, () => {}),
    status: 200,
  },
  mismatch('a chunk signature', 'chunk-sig', (k) =>
    streamingPut(k, (p) => {
      p[3] = Buffer.from(
        p[3]?.toString().replace(/=([0-9a-f])/, (_m, c: string) => `=${c === '0' ? '1' : '0'}`) ?? '',
      );
    }),
  ),
  mismatch('chunk data', 'chunk-data', (k) =>
    streamingPut(k, (p) => {
      p[4] = Buffer.alloc(p[4]?.length ?? 0, 8);
    }),
  ),
  mismatch('two chunks swapped', 'chunk-swap', (k) =>
    streamingPut(k, (p) => {
      const a = p.slice(0, 3);
      p.splice(0, 3, ...p.slice(3, 6));
      p.splice(3, 3, ...a);
    }),
  ),
  mismatch('final chunk signature', 'chunk-final', (k) =>
    streamingPut(k, (p) => {
      const i = p.length - 2;
      p[i] = Buffer.from(
        p[i]?.toString().replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`) ??
          '',
      );
    }),
  ),
];

const get = (key: string, expiresIn: number, extra: Partial<Signable> = {}) =>
  presigned({ method: 'GET', path: `/${BUCKET}/${key}`, expiresIn, ...extra });
const setQuery = (w: Wire, name: string, value: string) => ({ ...w, query: { ...w.query, [name]: value } });

const PRESIGNED_ROWS: Row[] = [
  { name: 'control: presigned GET', key: 'ok-put', make: (k) => get(k, 300), status: 200 },
  {
    name: 'presigned GET past its expiry',
    key: 'ok-put',
    make: (k) => get(k, 60, { date: new Date(Date.now() - 2 * MIN) }),
    status: 403,
    code: 'AccessDenied',
    message: 'Request has expired.',
  },
  mismatch('presigned X-Amz-Expires raised', 'ok-put', async (k) =>
    setQuery(await get(k, 60, { date: new Date(Date.now() - 2 * MIN) }), 'X-Amz-Expires', '3600'),
  ),
  mismatch('presigned X-Amz-Date moved', 'ok-put', async (k) => {
    const w = await get(k, 300);
    return setQuery(w, 'X-Amz-Date', aMinuteOn(w.query['X-Amz-Date'] as string));
  }),
  mismatch('presigned path', 'ok-put', async (k) => ({ ...(await get(k, 300)), path: `/${BUCKET}/${k}x` })),
  mismatch('presigned query parameter added', 'ok-put', async (k) =>
    setQuery(await get(k, 300), 'response-content-type', 'text/html'),
  ),
  mismatch('presigned Signature', 'ok-put', async (k) =>
    setQuery(await get(k, 300), 'X-Amz-Signature', '0'.repeat(64)),
  ),
  {
    name: 'presigned dated 16 minutes ahead',
    key: 'ok-put',
    make: (k) => get(k, 300, { date: new Date(Date.now() + 16 * MIN) }),
    status: 403,
    code: 'AccessDenied',
    message: 'Request is not valid yet.',
  },
  mismatch('presigned X-Amz-SignedHeaders naming constructor', 'ok-put', async (k) =>
    setQuery(await get(k, 300), 'X-Amz-SignedHeaders', 'constructor;host'),
  ),
  mismatch('presigned X-Amz-SignedHeaders naming __proto__', 'ok-put', async (k) =>
    setQuery(await get(k, 300), 'X-Amz-SignedHeaders', '__proto__;host'),
  ),
  {
    name: 'presigned with host left out of the signed headers',
    key: 'ok-put',
    make: (k) => get(k, 300, { headers: { 'content-type': 'text/plain' }, unsigned: ['host'] }),
    status: 403,
    code: 'AccessDenied',
    message: 'There were headers present in the request which were not signed',
  },
  {
    name: 'presigned PUT with an unsigned x-amz-copy-source (copy as the signer)',
    key: 'presigned-copy',
    make: async (k) =>
      withHeaders(await presigned({ method: 'PUT', path: `/${BUCKET}/${k}`, expiresIn: 300 }), {
        'x-amz-copy-source': `/${BUCKET}/ok-put`,
        'content-length': '0',
      }),
    status: 403,
    code: 'AccessDenied',
  },
  {
    name: 'presigned GET with an unsigned legacy X-CuObj-* trio',
    key: 'ok-put',
    make: async (k) => withHeaders(await get(k, 300), LEGACY_TRIO),
    status: 403,
    code: 'AccessDenied',
  },
  {
    name: 'presigned lifetime over 7 days',
    key: 'ok-put',
    make: async (k) => setQuery(await get(k, 300), 'X-Amz-Expires', '604801'),
    status: 403,
    code: 'AccessDenied',
  },
];

async function runRow(row: Row): Promise<void> {
  const w = await row.make(row.key);
  const res = await send(w);
  expect({ status: res.status, code: xmlField(res.body, 'Code') }, res.body).toEqual({
    status: row.status,
    code: row.code,
  });
  if (row.message) expect(xmlField(res.body, 'Message')).toBe(row.message);
  // a refused write leaves nothing on disk, under the key or under a tampered one
  if (w.method !== 'GET' && row.status !== 200) {
    expect(existsSync(join(root, BUCKET, row.key))).toBe(false);
    expect(existsSync(join(root, BUCKET, `${row.key}2`))).toBe(false);
  }
}

describe('SigV4 tamper matrix: header-signed requests', () => {
  for (const row of HEADER_ROWS) it(row.name, () => runRow(row));
});
describe('SigV4 tamper matrix: aws-chunked chunk signatures', () => {
  for (const row of CHUNK_ROWS) it(row.name, () => runRow(row));
});
describe('SigV4 tamper matrix: presigned URLs', () => {
  for (const row of PRESIGNED_ROWS) it(row.name, () => runRow(row));
});
