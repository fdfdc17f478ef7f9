// RDMA end to end: the built gateway process started with --rdma-ip 127.0.0.1 (softnic), driven
// by an rdma-ffi HostClient (its agent in this test process, so every transfer crosses processes)
// and @aws-sdk/client-s3 with the token signed in. Objects written by RDMA are read back over
// plain HTTP and compared by MD5; refusals, declines and failures leave nothing behind.
import { type ChildProcess, fork } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { HostClient, type HostMemory } from '@vgwrdma/rdma-ffi';
import { formatRdmaToken, parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { sdkMultipartUpload } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { afterAll, describe, expect, it } from 'vitest';
import { objectExists } from './helpers/object-exists.js';
import { md5Of, RDMA_SDK_OPTIONS, rdmaHeaders, sendError, sendWithToken } from './helpers/rdma.js';
import { expectRdmaPut } from './helpers/rdma-put.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

function randomRegion(client: HostClient, size: number): HostMemory {
  const m = client.allocate(size);
  for (let o = 0; o < size; o += 16 * MiB) randomFillSync(m.bytes, o, Math.min(16 * MiB, size - o));
  return m;
}

interface Host {
  /** The agent: a HostClient in this test process. */
  client: HostClient;
  /** The scene's root-account SDK client, with the RDMA client settings. */
  sdk: S3Client;
}

/** A gateway of its own with RDMA (softnic), `globalArgs` and the bucket made (vitest fixtures, file scope). */
const rdmaScene = (globalArgs: readonly string[], Bucket: string) =>
  sceneTest({ rdma: true, globalArgs, sdk: RDMA_SDK_OPTIONS, buckets: [Bucket] });

/** For the describe that calls it: `test`'s SDK client and an agent talking to it (closed after). */
function hostOf(test: ReturnType<typeof rdmaScene>): Host {
  const host = {} as Host;
  test.beforeAll(({ scene }) => {
    host.sdk = scene.s3;
    host.client = new HostClient();
  });
  afterAll(() => host.client?.close());
  return host;
}

const roundTrips = rdmaScene(['--pool-buf-size', '64MiB', '--pool-buf-count', '2'], 'rdma-e2e');
// one buffer, one channel, a short wait for either
const limited = rdmaScene(
  '--pool-buf-size 8MiB --pool-buf-count 1 --rdma-num-dcis 1 --rdma-pool-wait-ms 300'.split(' '),
  'rdma-limits',
);

describe('vgwrdma --rdma-ip 127.0.0.1: PUT/GET by RDMA', () => {
  const Bucket = 'rdma-e2e';
  const host = hostOf(roundTrips);

  /** PUT `size` random bytes by RDMA, GET them back by RDMA into a second region, and over HTTP. */
  async function roundTrip(Key: string, size: number) {
    const src = randomRegion(host.client, size);
    const dst = host.client.allocate(size);
    try {
      const expected = md5(src.bytes);
      const put = await sendWithToken<{ ETag?: string }>(
        host.sdk,
        new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0) }),
        src.token(0, size, 'put'),
      );
      expect(put.output.ETag).toBe(`"${expected}"`);
      expect(put.headers['x-amz-rdma-reply']).toBe('200');
      expect(put.headers['x-amz-rdma-bytes-transferred']).toBe(String(size));
      expect(put.headers['x-amz-rdma-bytes']).toBe(String(size));

      const get = await sendWithToken<{ ETag?: string; Body?: AsyncIterable<Uint8Array> }>(
        host.sdk,
        new GetObjectCommand({ Bucket, Key }),
        dst.token(0, size, 'get'),
      );
      expect(get.headers['x-amz-rdma-reply']).toBe('200');
      expect(get.headers['x-amz-rdma-bytes']).toBe(String(size));
      expect(get.headers['content-length']).toBe('0');
      expect(get.output.ETag).toBe(`"${expected}"`);
      expect((await md5Of(get.output.Body)).size).toBe(0);
      expect(md5(dst.bytes)).toBe(expected);

      const plain = await host.sdk.send(new GetObjectCommand({ Bucket, Key }));
      expect(plain.ETag).toBe(`"${expected}"`);
      expect(await md5Of(plain.Body as AsyncIterable<Uint8Array>)).toEqual({ md5: expected, size });
    } finally {
      src.close();
      dst.close();
    }
  }

  it('1 KiB', () => roundTrip('small', KiB));
  it('64 MiB', () => roundTrip('medium', 64 * MiB));
  it('above 1 GiB (more than one 1 GiB call)', () => roundTrip('large', GiB + 64 * KiB + 3), 240_000);

  it('ranged GET: HTTP 206 and x-amz-rdma-reply 206, only the range written', async () => {
    const size = 3 * MiB;
    const src = randomRegion(host.client, size);
    const dst = host.client.allocate(2 * MiB);
    try {
      await sendWithToken(
        host.sdk,
        new PutObjectCommand({ Bucket, Key: 'ranged', Body: new Uint8Array(0) }),
        src.token(0, size, 'put'),
      );
      const first = 12_345;
      const len = MiB + 17;
      const got = await sendWithToken<{ $metadata: { httpStatusCode?: number }; ContentRange?: string }>(
        host.sdk,
        new GetObjectCommand({ Bucket, Key: 'ranged', Range: `bytes=${first}-${first + len - 1}` }),
        dst.token(0, 2 * MiB, 'get'),
      );
      expect(got.output.$metadata.httpStatusCode).toBe(206);
      expect(got.output.ContentRange).toBe(`bytes ${first}-${first + len - 1}/${size}`);
      expect(got.headers['x-amz-rdma-reply']).toBe('206');
      expect(got.headers['x-amz-rdma-bytes']).toBe(String(len));
      expect(md5(dst.bytes.subarray(0, len))).toBe(md5(src.bytes.subarray(first, first + len)));
      expect(dst.bytes.subarray(len).every((b) => b === 0)).toBe(true);
    } finally {
      src.close();
      dst.close();
    }
  });

  it('multipart: three parts by RDMA, object read back over HTTP byte-exact', async () => {
    const sizes = [5 * MiB, 5 * MiB + 1, 777];
    const total = sizes.reduce((a, b) => a + b, 0);
    const src = randomRegion(host.client, total);
    try {
      let offset = 0;
      const { Parts, done } = await sdkMultipartUpload(
        host.sdk,
        { Bucket, Key: 'mp' },
        sizes.map(() => ({ Body: new Uint8Array(0) })),
        async (command, i) => {
          const size = sizes[i] as number;
          const up = await sendWithToken<{ ETag?: string }>(
            host.sdk,
            command,
            src.token(offset, size, 'put'),
          );
          expect(up.headers['x-amz-rdma-reply']).toBe('200');
          expect(up.output.ETag).toBe(`"${md5(src.bytes.subarray(offset, offset + size))}"`);
          offset += size;
          return { ETag: up.output.ETag };
        },
      );
      const partMd5s = Buffer.concat(
        Parts.map((p) => Buffer.from((p.ETag ?? '').replaceAll('"', ''), 'hex')),
      );
      expect(done.ETag).toBe(`"${md5(partMd5s)}-3"`);
      const plain = await host.sdk.send(new GetObjectCommand({ Bucket, Key: 'mp' }));
      expect(await md5Of(plain.Body as AsyncIterable<Uint8Array>)).toEqual({
        md5: md5(src.bytes),
        size: total,
      });
    } finally {
      src.close();
    }
  });

  it('HEAD with a token is an ordinary HEAD: no RDMA headers', async () => {
    const dst = host.client.allocate(4 * KiB);
    try {
      const head = await sendWithToken<{ ContentLength?: number }>(
        host.sdk,
        new HeadObjectCommand({ Bucket, Key: 'small' }),
        dst.token(0, 4 * KiB, 'get'),
      );
      expect(head.output.ContentLength).toBe(KiB);
      expect(rdmaHeaders(head.headers)).toEqual([]);
    } finally {
      dst.close();
    }
  });

  it('refusals: malformed token 400, RC token 501, token + body 400, capacity too small — no reply header, nothing written', async () => {
    const m = host.client.allocate(MiB);
    try {
      const put = (Key: string, Body: Uint8Array, token: string) =>
        sendError(sendWithToken(host.sdk, new PutObjectCommand({ Bucket, Key, Body }), token));
      const malformed = await put('refused', new Uint8Array(0), `${m.token(0, MiB, 'put').slice(0, -1)}x`);
      expect(malformed).toMatchObject({ code: 'InvalidArgument', status: 400 });
      const rc = await put('refused', new Uint8Array(0), 'rc:0000000000001000:00001000:abcd');
      expect(rc).toMatchObject({ code: 'NotImplemented', status: 501 });
      const withBody = await put('refused', new Uint8Array(16), m.token(0, MiB, 'put'));
      expect(withBody).toMatchObject({ code: 'InvalidArgument', status: 400 });
      const small = await sendError(
        sendWithToken(host.sdk, new GetObjectCommand({ Bucket, Key: 'medium' }), m.token(0, MiB, 'get')),
      );
      expect(small.status).toBe(400);
      for (const e of [malformed, rc, withBody, small]) expect(rdmaHeaders(e.headers)).toEqual([]);
      expect(m.bytes.every((b) => b === 0)).toBe(true);
      expect(await objectExists(host.sdk, Bucket, 'refused')).toBe(false);
    } finally {
      m.close();
    }
  });
});

describe('vgwrdma RDMA declines and failures (one buffer, one channel)', () => {
  const Bucket = 'rdma-limits';
  const host = hostOf(limited);

  /** An RDMA PUT of `size` random bytes that must succeed: proves the buffer and channel are free. */
  async function putSucceeds(Key: string, size = MiB): Promise<void> {
    const m = randomRegion(host.client, size);
    try {
      await expectRdmaPut(host.sdk, Bucket, Key, m, size);
    } finally {
      m.close();
    }
  }

  it('pool exhausted: the next PUT is declined at once (501 + reply 501, nothing stored), not left hanging', async () => {
    // A fake agent that accepts and never answers holds the only buffer for its handshake.
    const sockets: Socket[] = [];
    let connected!: () => void;
    const arrived = new Promise<void>((r) => {
      connected = r;
    });
    const fake: Server = createServer((s) => {
      sockets.push(s);
      s.on('error', () => {});
      connected();
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const m = randomRegion(host.client, MiB);
    try {
      const real = parseRdmaToken(m.token(0, MiB, 'put'));
      const stuckToken = formatRdmaToken({ ...real, dctn: (fake.address() as { port: number }).port });
      const stuck = sendError(
        sendWithToken(
          host.sdk,
          new PutObjectCommand({ Bucket, Key: 'stuck', Body: new Uint8Array(0) }),
          stuckToken,
        ),
      );
      await arrived; // the gateway holds the buffer and the channel now
      const declined = await sendError(
        sendWithToken(
          host.sdk,
          new PutObjectCommand({ Bucket, Key: 'declined', Body: new Uint8Array(0) }),
          m.token(0, MiB, 'put'),
        ),
      );
      expect(declined).toMatchObject({ code: 'NotImplemented', status: 501 });
      expect(declined.headers['x-amz-rdma-reply']).toBe('501');
      for (const s of sockets) s.destroy();
      const failed = await stuck;
      expect(failed.status).toBe(500);
      expect(rdmaHeaders(failed.headers)).toEqual([]);
      expect(await objectExists(host.sdk, Bucket, 'declined')).toBe(false);
      expect(await objectExists(host.sdk, Bucket, 'stuck')).toBe(false);
    } finally {
      m.close();
      await new Promise((r) => fake.close(r));
    }
    await putSucceeds('after-decline');
  });

  it('client killed mid-PUT: 500, no object, and the buffer and channel come back', async () => {
    const size = 48 * MiB;
    const child: ChildProcess = fork(
      fileURLToPath(new URL('./fixtures/host-client-child.mjs', import.meta.url)),
      [String(size)],
      {
        // Plain node resolving the built package, not this worker's 'source' condition.
        execArgv: [],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    try {
      const info = await new Promise<{ port: number; token: string; md5: string }>((resolve, reject) => {
        child.once('message', resolve as (m: unknown) => void);
        child.once('exit', (code) => reject(new Error(`client child exited (${code})`)));
      });
      child.removeAllListeners('exit');
      // The signal that ended the child, once its exit is seen (the PUT's answer can come first).
      const ended = new Promise<NodeJS.Signals | null>((resolve) =>
        child.once('exit', (_code, signal) => resolve(signal)),
      );
      // A TCP proxy between the gateway and the client's agent kills the client once 8 MiB went by.
      let forwarded = 0;
      const proxy = createServer((down) => {
        const up = connect(info.port, '127.0.0.1');
        for (const s of [up, down]) s.on('error', () => {});
        down.on('data', (d) => up.write(d));
        up.on('data', (d) => {
          down.write(d);
          forwarded += d.length;
          if (forwarded >= 8 * MiB && child.exitCode === null && child.signalCode === null)
            child.kill('SIGKILL');
        });
        up.on('close', () => down.destroy());
        down.on('close', () => up.destroy());
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      try {
        const viaProxy = formatRdmaToken({
          ...parseRdmaToken(info.token),
          dctn: (proxy.address() as { port: number }).port,
        });
        const failed = await sendError(
          sendWithToken(
            host.sdk,
            new PutObjectCommand({ Bucket, Key: 'killed', Body: new Uint8Array(0) }),
            viaProxy,
          ),
        );
        expect(await ended).toBe('SIGKILL');
        expect(failed.status).toBe(500);
        expect(rdmaHeaders(failed.headers)).toEqual([]);
        expect(await objectExists(host.sdk, Bucket, 'killed')).toBe(false);
      } finally {
        await new Promise((r) => proxy.close(r));
      }
    } finally {
      child.kill('SIGKILL');
    }
    await putSucceeds('after-kill');
  });
});
