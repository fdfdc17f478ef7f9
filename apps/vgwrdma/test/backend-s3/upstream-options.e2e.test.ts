// Upstream connection options against the real upstream gateway process: an https endpoint with
// a self-signed certificate (a TLS-terminating relay in front of the gateway) is refused unless
// sslSkipVerify, and anonymous credentials send unsigned requests (which this upstream refuses).
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { getChecksum, type RequestContext } from '@vgwrdma/backend-contract';
import { S3Backend } from '@vgwrdma/backend-s3';
import { errorCode } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstreamGateway, type UpstreamGateway } from './upstream-gateway.js';

const ctx: RequestContext = {
  account: { access: 'tester', role: 'admin' },
  requestId: 'options-test',
  signal: new AbortController().signal,
};

let upstream: UpstreamGateway;
let relay: Server;
let relayUrl: string;
let certDir: string;

/** A self-signed certificate for 127.0.0.1, made with the openssl CLI. */
async function selfSigned(dir: string): Promise<{ key: Buffer; cert: Buffer }> {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { key: await readFile(key), cert: await readFile(cert) };
}

/** Relays every https request to the upstream gateway unchanged (Host kept: SigV4 signs it). */
function startRelay(tls: { key: Buffer; cert: Buffer }, target: URL): Promise<Server> {
  const server = createHttpsServer(tls, (req, res) => {
    const out = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  upstream = await startUpstreamGateway();
  certDir = await mkdtemp(join(tmpdir(), 'backend-s3-tls-'));
  relay = await startRelay(await selfSigned(certDir), new URL(upstream.endpoint));
  relayUrl = `https://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});

afterAll(async () => {
  relay?.closeAllConnections();
  await new Promise((r) => relay?.close(r));
  await upstream?.stop();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

function backend(extra: Partial<ConstructorParameters<typeof S3Backend>[0]> = {}): S3Backend {
  return new S3Backend({
    endpoint: relayUrl,
    region: upstream.region,
    access: upstream.access,
    secret: upstream.secret,
    usePathStyle: true,
    maxAttempts: 1,
    ...extra,
  });
}

describe.skipIf(process.env.BACKEND_S3_TEST_ENDPOINT !== undefined)('upstream options', () => {
  it('refuses a self-signed upstream certificate unless sslSkipVerify', async () => {
    const strict = backend();
    try {
      const err = await strict.listBuckets(ctx, {}).then(
        () => undefined,
        (e: unknown) => e as { code?: string; cause?: { code?: string } },
      );
      expect(err?.code).toBe('InternalError');
      expect(String(err?.cause?.code)).toMatch(/SELF_SIGNED|CERT/);
    } finally {
      await strict.shutdown();
    }

    const lenient = backend({ sslSkipVerify: true });
    try {
      await lenient.createBucket(ctx, {
        bucket: 'over-tls',
        owner: 'tester',
        acl: { Owner: 'tester', Grantees: [] },
      });
      const data = Buffer.from('bytes over https');
      await lenient.putObject(ctx, {
        bucket: 'over-tls',
        key: 'k',
        body: Readable.from([data]),
        contentLength: data.length,
      });
      const got = await lenient.getObject(ctx, { bucket: 'over-tls', key: 'k' });
      const chunks: Buffer[] = [];
      for await (const c of got.body) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(data)).toBe(true);
    } finally {
      await lenient.shutdown();
    }
  });

  it('sends unsigned requests with anonymous credentials (this upstream refuses them)', async () => {
    const anonymous = backend({ sslSkipVerify: true, anonymous: true });
    try {
      expect(await errorCode(anonymous.listBuckets(ctx, {}))).toBe('AccessDenied');
      expect(await errorCode(anonymous.headBucket(ctx, 'over-tls'))).toBe('AccessDenied');
    } finally {
      await anonymous.shutdown();
    }
  });

  it('with disableChecksum verifies client checksums here and sends none upstream', async () => {
    const plain = new S3Backend({
      endpoint: upstream.endpoint,
      region: upstream.region,
      access: upstream.access,
      secret: upstream.secret,
      usePathStyle: true,
      disableChecksum: true,
    });
    try {
      await plain.createBucket(ctx, {
        bucket: 'no-checksums',
        owner: 'tester',
        acl: { Owner: 'tester', Grantees: [] },
      });
      const data = Buffer.from('checked at the proxy only');
      const hasher = getChecksum('CRC32').create();
      hasher.update(data);
      const crc = hasher.digest();
      const put = (expected: string) =>
        plain.putObject(ctx, {
          bucket: 'no-checksums',
          key: expected === crc ? 'good' : 'bad',
          body: Readable.from([data]),
          contentLength: data.length,
          checksum: { algorithm: 'CRC32', expected: () => expected },
        });
      expect((await put(crc)).checksums.CRC32).toBe(crc);
      const head = await plain.headObject(ctx, { bucket: 'no-checksums', key: 'good', checksumMode: true });
      expect(head.checksums?.CRC32).toBeUndefined(); // the upstream never saw one
      expect(await errorCode(put('AAAAAA=='))).toBe('BadDigest');
      expect(await errorCode(plain.headObject(ctx, { bucket: 'no-checksums', key: 'bad' }))).toBe(
        'NoSuchKey',
      );
    } finally {
      await plain.shutdown();
    }
  });
});
