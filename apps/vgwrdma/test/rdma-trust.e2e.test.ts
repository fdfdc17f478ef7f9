// The RDMA trust rules against the built gateway (issue 16 items 3, 6, 12, 13), each performed as
// the attack it closes:
//   - a PUT whose signature pins the SHA-256 of other content stores nothing (the agent's bytes
//     used to be stored); an honest client (UNSIGNED-PAYLOAD, or the real hash) still works;
//   - a token naming another host's agent is refused before any connection; --rdma-allow-agents
//     widens it; an anonymous request with a token never reaches an agent;
//   - RDMA sizes over S3's 5 GiB limit and windows wrapping past 2^64 are refused before any byte
//     moves; a softnic token port above 65535 is a 400, not a 500.
// "Reached an agent" is measured two ways: a listener aimed at by the token records connections,
// and the transport's own `connects` counter (PATCH /rdma-stats) must not move.
import { createHash } from 'node:crypto';
import {
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { HostClient, type HostMemory } from '@vgwrdma/rdma-ffi';
import { formatRdmaToken, parseRdmaToken } from '@vgwrdma/rdma-protocol';
import {
  adminRequest,
  type GatewayProcess,
  ROOT_CREDENTIALS,
  removeDir,
  s3Client,
  startRdmaGateway,
} from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { afterAll, describe, expect, it } from 'vitest';
import { startConnectionRecorder } from './helpers/connection-recorder.js';
import { md5Hex } from './helpers/files.js';
import { content, fillContent } from './helpers/object-content.js';
import {
  md5Of,
  RDMA_SDK_OPTIONS,
  type S3Client,
  sendError,
  sendSigned,
  sendWithToken,
} from './helpers/rdma.js';

const Bucket = 'trust';
const SIZE = 256 * 1024;
const GiB = 1024 ** 3;
const sha256Hex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

interface Stats {
  server: { declines: Record<string, number> };
  transport: { connects: number };
}

async function stats(gw: GatewayProcess): Promise<Stats> {
  const r = await adminRequest(gw.url, ROOT_CREDENTIALS, 'rdma-stats');
  expect(r.status).toBe(200);
  return JSON.parse(r.text) as Stats;
}

async function stored(sdk: S3Client, Key: string): Promise<boolean> {
  const head = await sendError(sdk.send(new HeadObjectCommand({ Bucket, Key }))).catch(() => undefined);
  if (head === undefined) return true;
  expect(head.status).toBe(404);
  return false;
}

const test = sceneTest({
  rdma: true,
  globalArgs: ['--quiet', '--pool-buf-size', '1MiB', '--pool-buf-count', '2'],
  sdk: RDMA_SDK_OPTIONS,
  buckets: [Bucket],
});

describe('RDMA trust rules (built gateway, softnic)', () => {
  let gw: GatewayProcess;
  let sdk: S3Client;
  let client: HostClient;
  let region: HostMemory;

  test.beforeAll(({ scene }) => {
    ({ gw, s3: sdk } = scene);
    client = new HostClient();
    region = client.allocate(SIZE);
    fillContent('trust', region.bytes);
  });
  afterAll(() => {
    region?.close();
    client?.close();
  });

  describe('item 3: a signed payload hash covers the bytes read by RDMA', () => {
    it('an honest RDMA PUT (UNSIGNED-PAYLOAD) is stored', async () => {
      const put = await sendWithToken<{ ETag?: string }>(
        sdk,
        new PutObjectCommand({ Bucket, Key: 'honest', Body: new Uint8Array(0) }),
        region.token(0, SIZE, 'put'),
      );
      expect(put.headers['x-amz-rdma-reply']).toBe('200');
      expect(put.output.ETag).toBe(`"${md5Hex(region.bytes)}"`);
    });

    it('an RDMA PUT signing the real SHA-256 of the agent bytes is stored', async () => {
      const put = await sendSigned<{ ETag?: string }>(
        sdk,
        new PutObjectCommand({ Bucket, Key: 'hashed', Body: new Uint8Array(0) }),
        { 'x-amz-rdma-token': region.token(0, SIZE, 'put'), 'x-amz-content-sha256': sha256Hex(region.bytes) },
      );
      expect(put.headers['x-amz-rdma-reply']).toBe('200');
      expect(put.output.ETag).toBe(`"${md5Hex(region.bytes)}"`);
    });

    it('a 4 MiB RDMA PUT (16 slice reuses, hashed off the main thread) is checked against its signed hash', async () => {
      const big = client.allocate(4 * 1024 * 1024);
      try {
        fillContent('big', big.bytes);
        const put = await sendSigned<{ ETag?: string }>(
          sdk,
          new PutObjectCommand({ Bucket, Key: 'big', Body: new Uint8Array(0) }),
          { 'x-amz-rdma-token': big.token(0, big.size, 'put'), 'x-amz-content-sha256': sha256Hex(big.bytes) },
        );
        expect(put.output.ETag).toBe(`"${md5Hex(big.bytes)}"`);
        const got = await sdk.send(new GetObjectCommand({ Bucket, Key: 'big' }));
        expect(await md5Of(got.Body as AsyncIterable<Uint8Array>)).toEqual({
          md5: md5Hex(big.bytes),
          size: big.size,
        });
        const wrong = await sendError(
          sendSigned(sdk, new PutObjectCommand({ Bucket, Key: 'big-wrong', Body: new Uint8Array(0) }), {
            'x-amz-rdma-token': big.token(0, big.size, 'put'),
            'x-amz-content-sha256': sha256Hex(big.bytes.subarray(1)),
          }),
        );
        expect(wrong).toMatchObject({ code: 'XAmzContentSHA256Mismatch', status: 400 });
        expect(await stored(sdk, 'big-wrong')).toBe(false);
      } finally {
        big.close();
      }
    });

    it('a PUT whose signature pins other content stores nothing (XAmzContentSHA256Mismatch, as over HTTP)', async () => {
      const signedFor = 'the content the signer approved';
      const overHttp = await sendError(
        sendSigned(sdk, new PutObjectCommand({ Bucket, Key: 'pinned-http', Body: content('other', 64) }), {
          'x-amz-content-sha256': sha256Hex(signedFor),
        }),
      );
      const overRdma = await sendError(
        sendSigned(sdk, new PutObjectCommand({ Bucket, Key: 'pinned', Body: new Uint8Array(0) }), {
          'x-amz-rdma-token': region.token(0, SIZE, 'put'),
          'x-amz-content-sha256': sha256Hex(signedFor),
        }),
      );
      expect(overRdma).toMatchObject({ code: 'XAmzContentSHA256Mismatch', status: 400 });
      expect({ code: overRdma.code, status: overRdma.status }).toEqual({
        code: overHttp.code,
        status: overHttp.status,
      });
      // The empty body's hash (what the AWS SDK signs by default) pins "no bytes" just as well.
      const empty = await sendError(
        sendSigned(sdk, new PutObjectCommand({ Bucket, Key: 'pinned-empty', Body: new Uint8Array(0) }), {
          'x-amz-rdma-token': region.token(0, SIZE, 'put'),
          'x-amz-content-sha256': sha256Hex(''),
        }),
      );
      expect(empty).toMatchObject({ code: 'XAmzContentSHA256Mismatch', status: 400 });
      expect(await stored(sdk, 'pinned')).toBe(false);
      expect(await stored(sdk, 'pinned-empty')).toBe(false);
      expect(await stored(sdk, 'pinned-http')).toBe(false);
    });
  });

  describe('item 6: the gateway dials only the requesting host, and never for anonymous requests', () => {
    it('a token naming an agent on another address (127.0.0.2) is refused before any connection', async () => {
      const other = await startConnectionRecorder('127.0.0.2');
      try {
        const before = (await stats(gw)).transport.connects;
        const put = await sendError(
          sendWithToken(
            sdk,
            new PutObjectCommand({ Bucket, Key: 'elsewhere', Body: new Uint8Array(0) }),
            other.route(region.token(0, SIZE, 'put')),
          ),
        );
        expect(put).toMatchObject({ code: 'AccessDenied', status: 403 });
        expect(put.headers['x-amz-rdma-reply']).toBeUndefined();
        const get = await sendError(
          sendWithToken(
            sdk,
            new GetObjectCommand({ Bucket, Key: 'honest' }),
            other.route(region.token(0, SIZE, 'get')),
          ),
        );
        expect(get).toMatchObject({ code: 'AccessDenied', status: 403 });
        expect(other.connections()).toBe(0);
        expect((await stats(gw)).transport.connects).toBe(before);
        expect(await stored(sdk, 'elsewhere')).toBe(false);
      } finally {
        await other.close();
      }
    });

    it('--rdma-allow-agents 127.0.0.2/32 lets a token name that agent', async () => {
      const wide = await startRdmaGateway({
        args: ['--pool-buf-size', '1MiB', '--pool-buf-count', '2', '--rdma-allow-agents', '127.0.0.2/32'],
      });
      const other = await startConnectionRecorder('127.0.0.2');
      const wideSdk = s3Client(wide.url, ROOT_CREDENTIALS, RDMA_SDK_OPTIONS);
      try {
        await wideSdk.send(new CreateBucketCommand({ Bucket }));
        const put = await sendError(
          sendWithToken(
            wideSdk,
            new PutObjectCommand({ Bucket, Key: 'allowed', Body: new Uint8Array(0) }),
            other.route(region.token(0, SIZE, 'put')),
          ),
        );
        expect(put.code).not.toBe('AccessDenied'); // dialled: the listener is no agent, so it fails later
        expect(other.connections()).toBeGreaterThan(0);
      } finally {
        wideSdk.destroy();
        await other.close();
        await wide.stop();
        await removeDir(wide.root);
      }
    });

    it('an anonymous request with a token never reaches an agent: PUT declined (501), GET served over HTTP', async () => {
      const Public = 'trust-public';
      await sdk.send(new CreateBucketCommand({ Bucket: Public }));
      await sdk.send(
        new PutBucketPolicyCommand({
          Bucket: Public,
          Policy: JSON.stringify({
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Principal: '*',
                Action: ['s3:PutObject', 's3:GetObject'],
                Resource: [`arn:aws:s3:::${Public}/*`],
              },
            ],
          }),
        }),
      );
      await sdk.send(new PutObjectCommand({ Bucket: Public, Key: 'page', Body: content('page', 1000) }));
      // The listener is on the client's own address: only the anonymity can keep the gateway away.
      const agent = await startConnectionRecorder('127.0.0.1');
      try {
        const before = (await stats(gw)).transport.connects;
        const put = await fetch(`${gw.url}/${Public}/anon`, {
          method: 'PUT',
          headers: { 'x-amz-rdma-token': agent.route(region.token(0, SIZE, 'put')), 'content-length': '0' },
        });
        expect(put.status).toBe(501);
        expect(put.headers.get('x-amz-rdma-reply')).toBe('501');
        expect(await put.text()).toContain('<Code>NotImplemented</Code>');
        const get = await fetch(`${gw.url}/${Public}/page`, {
          headers: { 'x-amz-rdma-token': agent.route(region.token(0, SIZE, 'get')) },
        });
        expect(get.status).toBe(200);
        expect(get.headers.get('x-amz-rdma-reply')).toBe('501');
        expect(await md5Of(get.body as AsyncIterable<Uint8Array>)).toEqual({
          md5: md5Hex(content('page', 1000)),
          size: 1000,
        });
        expect(agent.connections()).toBe(0);
        expect((await stats(gw)).transport.connects).toBe(before);
        const anon = await sendError(sdk.send(new HeadObjectCommand({ Bucket: Public, Key: 'anon' })));
        expect(anon.status).toBe(404);
      } finally {
        await agent.close();
      }
    });
  });

  describe('items 12 and 13: sizes, windows and ports checked before any byte moves', () => {
    /** The region's token re-aimed at a listener, with an override window. */
    const withWindow = (token: string, addr: bigint, size: bigint) =>
      formatRdmaToken(parseRdmaToken(token), { override: { addr, size } });

    it('a 1 TiB RDMA PUT and a 5 GiB + 1 UploadPart are EntityTooLarge, and nothing is read', async () => {
      const agent = await startConnectionRecorder('127.0.0.1');
      try {
        const before = (await stats(gw)).transport.connects;
        const base = agent.route(region.token(0, SIZE, 'put'));
        const tib = withWindow(base, region.address, 1024n * BigInt(GiB));
        const put = await sendError(
          sendWithToken(sdk, new PutObjectCommand({ Bucket, Key: 'huge', Body: new Uint8Array(0) }), tib),
        );
        expect(put).toMatchObject({ code: 'EntityTooLarge', status: 400 });
        const { UploadId } = await sdk.send(new CreateMultipartUploadCommand({ Bucket, Key: 'huge-mp' }));
        const part = await sendError(
          sendWithToken(
            sdk,
            new UploadPartCommand({
              Bucket,
              Key: 'huge-mp',
              UploadId,
              PartNumber: 1,
              Body: new Uint8Array(0),
            }),
            withWindow(base, region.address, 5n * BigInt(GiB) + 1n),
          ),
        );
        expect(part).toMatchObject({ code: 'EntityTooLarge', status: 400 });
        expect(agent.connections()).toBe(0);
        expect((await stats(gw)).transport.connects).toBe(before);
        expect(await stored(sdk, 'huge')).toBe(false);
      } finally {
        await agent.close();
      }
    });

    it('a window whose address + size wraps past 2^64 is 400 InvalidArgument, and nothing is read', async () => {
      const agent = await startConnectionRecorder('127.0.0.1');
      try {
        const wrap = withWindow(agent.route(region.token(0, SIZE, 'put')), 0xffff_ffff_ffff_f000n, 0x2000n);
        const put = await sendError(
          sendWithToken(sdk, new PutObjectCommand({ Bucket, Key: 'wrap', Body: new Uint8Array(0) }), wrap),
        );
        expect(put).toMatchObject({ code: 'InvalidArgument', status: 400 });
        expect(agent.connections()).toBe(0);
        expect(await stored(sdk, 'wrap')).toBe(false);
      } finally {
        await agent.close();
      }
    });

    it('a token whose port field is above 65535 is 400 InvalidArgument (was 500)', async () => {
      const wide = formatRdmaToken({ ...parseRdmaToken(region.token(0, SIZE, 'put')), dctn: 70_000 });
      const put = await sendError(
        sendWithToken(sdk, new PutObjectCommand({ Bucket, Key: 'port', Body: new Uint8Array(0) }), wide),
      );
      expect(put).toMatchObject({ code: 'InvalidArgument', status: 400 });
      expect(put.headers['x-amz-rdma-reply']).toBeUndefined();
      expect(await stored(sdk, 'port')).toBe(false);
    });
  });

  it('a plain GET of the honest object still matches the client buffer', async () => {
    const got = await sdk.send(new GetObjectCommand({ Bucket, Key: 'honest' }));
    expect(await md5Of(got.Body as AsyncIterable<Uint8Array>)).toEqual({
      md5: md5Hex(region.bytes),
      size: SIZE,
    });
  });
});
