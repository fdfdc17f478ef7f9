// rdmaPlugin (CuServer + cu-middleware + PATCH /rdma-stats) in the real gateway, in process, embedded
// with the README's three lines and driven over HTTP by @aws-sdk/client-s3 with the token signed
// in; the client memory lives in a HostClient child. (apps/vgwrdma's end-to-end tests do the same
// against the gateway process, which embeds the plugin the same way.)
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { createGateway, type Gateway, type RunningGateway, staticCredentials } from '@vgwrdma/gateway';
import { adminRequest, sdkMultipartUpload } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RdmaPlugin, type RdmaStatsReport, rdmaPlugin } from '../src/index.js';
import { ClientProcess } from './client-process.js';
import { s3, sendError, sendWithToken } from './s3-over-rdma.js';

const MiB = 1 << 20;
const ACCESS = 'cu-http';
const SECRET = 'cu-http-secret';
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

describe('rdmaPlugin in the gateway, over HTTP with the SDK', () => {
  let client: ClientProcess;
  let dir: string;
  let rdma: RdmaPlugin;
  let gateway: Gateway;
  let gw: RunningGateway;
  let sdk: S3Client;
  const Bucket = 'rdma-http';

  beforeAll(async () => {
    client = await ClientProcess.start();
    dir = await mkdtemp(join(tmpdir(), 'cu-http-'));
    const posix = await PosixBackend.open({ root: join(dir, 'root') });
    rdma = rdmaPlugin({
      ip: '127.0.0.1',
      poolBufSize: 4 * MiB,
      poolBufCount: 2,
      numDcis: 4,
      poolWaitMs: 200,
      chunkSize: MiB,
    });
    gateway = createGateway({
      backend: posix,
      plugins: [rdma],
      credentials: staticCredentials([{ access: ACCESS, secret: SECRET, account: { role: 'admin' } }]),
    });
    gw = await gateway.listen({ port: 0, host: '127.0.0.1' });
    sdk = s3(gw.url, ACCESS, SECRET);
    await sdk.send(new CreateBucketCommand({ Bucket }));
  });
  afterAll(async () => {
    sdk?.destroy();
    await gateway?.shutdown();
    await client?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function region(size: number, seed: number) {
    const { region: r } = await client.alloc(size);
    await client.fill(r, seed);
    return r;
  }

  it('PUT by RDMA: 200 with reply 200 and the byte count; a plain GET returns the client bytes', async () => {
    const size = 3 * MiB + 5;
    const r = await region(size, 1);
    const token = await client.token(r, 0, size, 'put');
    const { output, headers } = await sendWithToken(
      sdk,
      new PutObjectCommand({ Bucket, Key: 'put', Body: new Uint8Array(0) }),
      token,
    );
    const clientMd5 = await client.hash(r);
    expect(output.ETag).toBe(`"${clientMd5}"`);
    expect(headers['x-amz-rdma-reply']).toBe('200');
    expect(headers['x-amz-rdma-bytes-transferred']).toBe(String(size));
    expect(headers['x-amz-rdma-bytes']).toBe(String(size));
    const plain = await sdk.send(new GetObjectCommand({ Bucket, Key: 'put' }));
    expect(md5(await plain.Body!.transformToByteArray())).toBe(clientMd5);
  });

  it('PUT by RDMA verifies x-amz-checksum-sha256 against the RDMA bytes', async () => {
    const size = MiB + 3;
    const r = await region(size, 2);
    const token = await client.token(r, 0, size, 'put');
    const sha = await client.hash(r, { algorithm: 'sha256', encoding: 'base64' });
    const ok = await sendWithToken(
      sdk,
      new PutObjectCommand({ Bucket, Key: 'sum', Body: new Uint8Array(0), ChecksumSHA256: sha }),
      token,
    );
    expect(ok.output.ChecksumSHA256).toBe(sha);
    const wrong = createHash('sha256').update('x').digest('base64');
    const bad = await sendError(
      sendWithToken(
        sdk,
        new PutObjectCommand({ Bucket, Key: 'sum-bad', Body: new Uint8Array(0), ChecksumSHA256: wrong }),
        token,
      ),
    );
    expect(bad).toMatchObject({ code: 'BadDigest', status: 400 });
    expect((await sendError(sdk.send(new HeadObjectCommand({ Bucket, Key: 'sum-bad' })))).status).toBe(404);
  });

  it('GET by RDMA: empty body, reply 200; ranged GET: HTTP 206 and reply 206', async () => {
    const data = Buffer.alloc(2 * MiB + 77);
    for (let i = 0; i < data.length; i++) data[i] = (i * 17 + 3) & 0xff;
    await sdk.send(new PutObjectCommand({ Bucket, Key: 'get', Body: data }));
    const { region: r } = await client.alloc(data.length);
    const got = await sendWithToken(
      sdk,
      new GetObjectCommand({ Bucket, Key: 'get' }),
      await client.token(r, 0, data.length, 'get'),
    );
    expect(got.headers['x-amz-rdma-reply']).toBe('200');
    expect(got.headers['content-length']).toBe('0');
    expect(got.output.ETag).toBe(`"${md5(data)}"`);
    expect((await got.output.Body!.transformToByteArray()).length).toBe(0);
    expect(await client.hash(r)).toBe(md5(data));

    const { region: rr } = await client.alloc(MiB);
    const ranged = await sendWithToken(
      sdk,
      new GetObjectCommand({ Bucket, Key: 'get', Range: 'bytes=100-1048675' }),
      await client.token(rr, 0, MiB, 'get'),
    );
    expect(ranged.output.$metadata.httpStatusCode).toBe(206);
    expect(ranged.headers['x-amz-rdma-reply']).toBe('206');
    expect(ranged.headers['x-amz-rdma-bytes']).toBe(String(MiB));
    expect(await client.hash(rr)).toBe(md5(data.subarray(100, 100 + MiB)));
  });

  it('multipart: three parts by RDMA, completed object byte-exact with the multipart ETag', async () => {
    const sizes = [5 * MiB, 5 * MiB, 4321];
    const total = sizes.reduce((a, b) => a + b, 0);
    const r = await region(total, 3);
    let offset = 0;
    const { done } = await sdkMultipartUpload(
      sdk,
      { Bucket, Key: 'mp' },
      sizes.map(() => ({ Body: new Uint8Array(0) })),
      async (command, i) => {
        const size = sizes[i] as number;
        const token = await client.token(r, offset, size, 'put');
        const up = await sendWithToken(sdk, command, token);
        expect(up.headers['x-amz-rdma-reply']).toBe('200');
        offset += size;
        return { ETag: up.output.ETag };
      },
    );
    expect(done.ETag).toMatch(/-3"$/);
    const plain = await sdk.send(new GetObjectCommand({ Bucket, Key: 'mp' }));
    expect(md5(await plain.Body!.transformToByteArray())).toBe(await client.hash(r));
  });

  it('HEAD with a token is an ordinary HEAD: no RDMA headers', async () => {
    const { region: r } = await client.alloc(MiB);
    const head = await sendWithToken(
      sdk,
      new HeadObjectCommand({ Bucket, Key: 'get' }),
      await client.token(r, 0, MiB, 'get'),
    );
    expect(head.output.ContentLength).toBe(2 * MiB + 77);
    expect(Object.keys(head.headers).filter((h) => h.startsWith('x-amz-rdma'))).toEqual([]);
  });

  it('refusals: malformed token 400, RC token 501, token + body 400, capacity too small 400 — none with a reply header', async () => {
    const { region: r } = await client.alloc(MiB);
    const put = (Key: string, Body: Uint8Array, token: string) =>
      sendWithToken(sdk, new PutObjectCommand({ Bucket, Key, Body }), token);
    const malformed = await sendError(put('m', new Uint8Array(0), 'not-a-token'));
    expect(malformed).toMatchObject({ code: 'InvalidArgument', status: 400 });
    const rc = await sendError(put('m', new Uint8Array(0), 'rc:0000000000001000:00001000:abcd'));
    expect(rc).toMatchObject({ code: 'NotImplemented', status: 501 });
    const good = await client.token(r, 0, MiB, 'put');
    const withBody = await sendError(put('m', new Uint8Array(10), good));
    expect(withBody).toMatchObject({ code: 'InvalidArgument', status: 400 });
    const small = await sendError(
      sendWithToken(sdk, new GetObjectCommand({ Bucket, Key: 'get' }), await client.token(r, 0, MiB, 'get')),
    );
    expect(small).toMatchObject({ code: 'InvalidArgument', status: 400 });
    for (const e of [malformed, rc, withBody, small]) expect(e.headers['x-amz-rdma-reply']).toBeUndefined();
    expect(await client.hash(r)).toBe(md5(new Uint8Array(MiB))); // nothing written
    expect((await sendError(sdk.send(new HeadObjectCommand({ Bucket, Key: 'm' })))).status).toBe(404);
  });

  it('pool exhausted: PUT declined 501 + reply 501 and nothing stored; GET served in the body + reply 501', async () => {
    const held = [await rdma.pool.acquire(), await rdma.pool.acquire()];
    try {
      const r = await region(MiB, 4);
      const declined = await sendError(
        sendWithToken(
          sdk,
          new PutObjectCommand({ Bucket, Key: 'declined', Body: new Uint8Array(0) }),
          await client.token(r, 0, MiB, 'put'),
        ),
      );
      expect(declined).toMatchObject({ code: 'NotImplemented', status: 501 });
      expect(declined.headers['x-amz-rdma-reply']).toBe('501');
      expect((await sendError(sdk.send(new HeadObjectCommand({ Bucket, Key: 'declined' })))).status).toBe(
        404,
      );
      const { region: g } = await client.alloc(4 * MiB);
      const get = await sendWithToken(
        sdk,
        new GetObjectCommand({ Bucket, Key: 'get' }),
        await client.token(g, 0, 4 * MiB, 'get'),
      );
      expect(get.headers['x-amz-rdma-reply']).toBe('501');
      expect((await get.output.Body!.transformToByteArray()).length).toBe(2 * MiB + 77);
    } finally {
      for (const l of held) l.release();
    }
    expect(rdma.stats().server).toMatchObject({ channelsInUse: 0, buffersInUse: 0 });
  });

  it('PATCH /rdma-stats (admin-signed) reports the transfers, the pool and the transport', async () => {
    const before = rdma.stats();
    const r = await region(MiB, 5);
    await sendWithToken(
      sdk,
      new PutObjectCommand({ Bucket, Key: 'counted', Body: new Uint8Array(0) }),
      await client.token(r, 0, MiB, 'put'),
    );
    const res = await adminRequest(gw.url, { access: ACCESS, secret: SECRET }, 'rdma-stats');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const report = JSON.parse(res.text) as RdmaStatsReport;
    expect(report.server.rdmaPuts).toBe(before.server.rdmaPuts + 1);
    expect(report.server.bytesRead).toBe(before.server.bytesRead + MiB);
    expect(report.server).toMatchObject({ channelsInUse: 0, buffersInUse: 0 });
    expect(report.pool).toMatchObject({ count: 2, bufferSize: 4 * MiB, inUse: 0 });
    expect(report.transport).toEqual(JSON.parse(JSON.stringify(rdma.server.stats())));
    expect(gateway.stats()).toEqual({ rdma: rdma.stats() });
  });

  it('gateway.shutdown() closes the RDMA pool and server before the posix backend', async () => {
    // Runs last: afterAll's second shutdown() is the same promise.
    await gateway.shutdown();
    expect(rdma.pool.closed).toBe(true);
    expect(rdma.server.connected).toBe(false);
  });
});
