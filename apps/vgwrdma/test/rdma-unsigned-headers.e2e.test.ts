// The RDMA request headers must be signed (issue 16, items 2 and 3): against the built gateway
// with --rdma-ip (softnic), an attacker's agent in this test process, and requests signed by the
// AWS SDK for the object's owner. Whoever replays such a request, or holds a presigned URL, and
// adds an unsigned legacy X-CuObj-* trio or x-amz-rdma-token pointing at their own buffer must be
// refused (403 AccessDenied) before any byte moves: a GET must not be diverted into the attacker's
// memory, a PUT must not store the attacker's bytes. The same trio, signed, is honoured: the
// refusal is the signing rule, not a gateway that ignores the trio. Under SigV2, which cannot
// sign the trio, any RDMA header is refused (400 InvalidRequest) and the object stays reachable
// over plain HTTP.
import { createHash, createHmac, randomFillSync } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { HostClient, type HostMemory } from '@vgwrdma/rdma-ffi';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { type GatewayProcess, ROOT_CREDENTIALS } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { afterAll, expect, it } from 'vitest';
import { afterSigning, type Stackable } from './helpers/after-signing.js';
import { objectExists } from './helpers/object-exists.js';
import { RDMA_SDK_OPTIONS, rdmaHeaders, sendError, sendSigned } from './helpers/rdma.js';

const SIZE = 64 * 1024;
const Bucket = 'rdma-signing';
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

const test = sceneTest({
  rdma: true,
  globalArgs: ['--quiet', '--pool-buf-size', '1MiB', '--pool-buf-count', '2'],
  sdk: RDMA_SDK_OPTIONS,
  buckets: [Bucket],
});
let gw: GatewayProcess;
let agent: HostClient;
let sdk: S3Client;
const secret = randomFillSync(Buffer.alloc(SIZE));

test.beforeAll(async ({ scene }) => {
  gw = scene.gw;
  sdk = scene.s3;
  agent = new HostClient();
  await sdk.send(new PutObjectCommand({ Bucket, Key: 'secret', Body: secret }));
});
afterAll(() => agent?.close());

/** The legacy trio naming `size` bytes of `region` (decimal length and start, as vgwrdma's tools send). */
function legacyTrio(region: HostMemory, size: number, op: 'get' | 'put'): Record<string, string> {
  const token = region.token(0, size, op);
  return {
    'X-CuObj-RDMA-Descr': token,
    'X-CuObj-Content-Length': String(size),
    'X-CuObj-Remote-Buf-Start': parseRdmaToken(token).remoteAddr.toString(),
  };
}

/** Sends `command` signed by the SDK, then adds `headers` to the wire request after signing. */
function sendWithUnsigned(command: Stackable, headers: Record<string, string>): Promise<unknown> {
  return sdk.send(afterSigning(command, (h) => Object.assign(h, headers)) as never);
}

it('control: the same trio, signed, moves the object by RDMA', async () => {
  const dst = agent.allocate(SIZE);
  try {
    const got = await sendSigned(
      sdk,
      new GetObjectCommand({ Bucket, Key: 'secret' }),
      legacyTrio(dst, SIZE, 'get'),
    );
    expect(got.headers['x-amz-rdma-reply']).toBe('200');
    expect(md5(dst.bytes)).toBe(md5(secret));
  } finally {
    dst.close();
  }
});

it('a signed GET with an unsigned X-CuObj-* trio is refused: nothing lands in the agent', async () => {
  const dst = agent.allocate(SIZE);
  try {
    const err = await sendError(
      sendWithUnsigned(new GetObjectCommand({ Bucket, Key: 'secret' }), legacyTrio(dst, SIZE, 'get')),
    );
    expect([err.status, err.code]).toEqual([403, 'AccessDenied']);
    expect(rdmaHeaders(err.headers)).toEqual([]);
    expect(dst.bytes.every((b) => b === 0)).toBe(true);
  } finally {
    dst.close();
  }
});

it('a signed empty PUT with an unsigned X-CuObj-* trio is refused: the agent bytes are not stored', async () => {
  const src = agent.allocate(SIZE);
  randomFillSync(src.bytes);
  try {
    const err = await sendError(
      sendWithUnsigned(new PutObjectCommand({ Bucket, Key: 'planted', Body: new Uint8Array(0) }), {
        ...legacyTrio(src, SIZE, 'put'),
        'content-length': '0',
      }),
    );
    expect([err.status, err.code]).toEqual([403, 'AccessDenied']);
    expect(await objectExists(sdk, Bucket, 'planted')).toBe(false);
  } finally {
    src.close();
  }
});

it('a presigned GET used with an unsigned x-amz-rdma-token or trio is refused: nothing diverted', async () => {
  const url = await getSignedUrl(sdk, new GetObjectCommand({ Bucket, Key: 'secret' }), { expiresIn: 300 });
  const dst = agent.allocate(SIZE);
  try {
    for (const headers of [{ 'x-amz-rdma-token': dst.token(0, SIZE, 'get') }, legacyTrio(dst, SIZE, 'get')]) {
      const res = await fetch(url, { headers });
      const body = await res.text();
      expect([res.status, /<Code>([^<]*)<\/Code>/.exec(body)?.[1]], body).toEqual([403, 'AccessDenied']);
      expect(res.headers.get('x-amz-rdma-reply')).toBeNull();
    }
    expect(dst.bytes.every((b) => b === 0)).toBe(true);
    // the URL itself still works, over HTTP
    const plain = await fetch(url);
    expect(md5(Buffer.from(await plain.arrayBuffer()))).toBe(md5(secret));
  } finally {
    dst.close();
  }
});

/** A SigV2-signed GET (HMAC-SHA1 over the StringToSign; every x-amz-* header in it). */
function sigV2Get(path: string, extra: Record<string, string>): Promise<Response> {
  const date = new Date().toUTCString();
  const amz = Object.entries(extra)
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .filter(([name]) => name.startsWith('x-amz-'))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => `${name}:${value}\n`)
    .join('');
  const signature = createHmac('sha1', ROOT_CREDENTIALS.secret)
    .update(`GET\n\n\n${date}\n${amz}${path}`)
    .digest('base64');
  return fetch(new URL(path, gw.url), {
    headers: { ...extra, date, authorization: `AWS ${ROOT_CREDENTIALS.access}:${signature}` },
  });
}

it('a SigV2 GET with RDMA headers (the trio, or a token it signs) is refused: nothing diverted', async () => {
  const dst = agent.allocate(SIZE);
  try {
    for (const headers of [legacyTrio(dst, SIZE, 'get'), { 'x-amz-rdma-token': dst.token(0, SIZE, 'get') }]) {
      const res = await sigV2Get(`/${Bucket}/secret`, headers);
      const body = await res.text();
      expect([res.status, /<Code>([^<]*)<\/Code>/.exec(body)?.[1]], body).toEqual([400, 'InvalidRequest']);
      expect(body).toContain('require AWS Signature Version 4');
      expect(res.headers.get('x-amz-rdma-reply')).toBeNull();
    }
    expect(dst.bytes.every((b) => b === 0)).toBe(true);
    // The same SigV2 signer without RDMA headers reads the object over HTTP.
    const plain = await sigV2Get(`/${Bucket}/secret`, {});
    expect(md5(Buffer.from(await plain.arrayBuffer()))).toBe(md5(secret));
  } finally {
    dst.close();
  }
});
