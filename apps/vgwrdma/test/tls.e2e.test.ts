// The built gateway with --cert/--key, against a CA and server certificates this test makes with
// openssl: the AWS SDK (an https.Agent trusting the CA) and the AWS CLI (--ca-bundle) use it, a
// client that does not trust the CA is refused, TLS 1.1 is refused by the server while 1.2 and
// 1.3 work, SIGHUP swaps the certificate for new connections while an open keep-alive connection
// goes on working, a bad pair on SIGHUP keeps the running one, and bad files stop the start.
import { copyFile, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { type ConnectionOptions, connect, type PeerCertificate, type TLSSocket } from 'node:tls';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { runMain, type SceneTls, type ServerCert, s3Client, sceneTls, startScene } from '@vgwrdma/test-kit';
import { sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { AWS_BIN } from './helpers/aws-cli.js';

let tls: SceneTls;
let first: ServerCert;
let second: ServerCert;
/** The files the gateway is started with; tests overwrite them before a SIGHUP. */
let certFile: string;
let keyFile: string;
/** The CA certificate, as clients are given it. */
let caPem: Buffer;

const test = sceneTest(async (dir) => {
  tls = await sceneTls(dir, 'first.vgwrdma.test');
  caPem = tls.caPem;
  first = tls.cert;
  second = await tls.ca.issue('second.vgwrdma.test');
  certFile = join(dir, 'live.pem');
  keyFile = join(dir, 'live.key');
  await copyFile(first.certFile, certFile);
  await copyFile(first.keyFile, keyFile);
  return { globalArgs: ['--cert', certFile, '--key', keyFile, '--health', '/health'], sdk: tls.sdk };
});
const the = sceneRef(test);

/** Opens a TLS connection with `options` and resolves with the server's certificate. */
function handshake(options: ConnectionOptions = {}): Promise<{ cert: PeerCertificate; protocol: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: the.gw.port, ca: [caPem], ...options }, () => {
      const result = { cert: socket.getPeerCertificate(), protocol: socket.getProtocol() ?? '' };
      socket.end();
      resolve(result);
    });
    socket.once('error', reject);
  });
}

interface HealthAnswer {
  readonly status: number;
  /** The TLS socket it went over, and the certificate that socket was handshaken with. */
  readonly socket: TLSSocket;
  readonly certCN: string;
  readonly reused: boolean;
}

/** GET /health through `agent`. */
function getHealth(agent: Agent): Promise<HealthAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${the.gw.url}/health`, { agent }, (res) => {
      const socket = res.socket as TLSSocket;
      const certCN = String(socket.getPeerCertificate().subject.CN);
      res.resume();
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, socket, certCN, reused: req.reusedSocket }),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!check()) throw new Error(`gave up waiting for ${what}`);
}

describe('vgwrdma --cert --key (HTTPS)', () => {
  test('announces https:// in the banner and serves the AWS SDK through a CA-trusting agent', async ({
    scene: { gw },
    s3: client,
  }) => {
    expect(gw.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(gw.stdout()).toMatch(/^\s*tls:\s+\S+live\.pem \(TLS 1\.2\+, reloaded on SIGHUP\)$/m);
    await client.send(new CreateBucketCommand({ Bucket: 'tls' }));
    await client.send(new PutObjectCommand({ Bucket: 'tls', Key: 'hello.txt', Body: 'over TLS' }));
    const got = await client.send(new GetObjectCommand({ Bucket: 'tls', Key: 'hello.txt' }));
    expect(await got.Body?.transformToString()).toBe('over TLS');
    const list = await client.send(new ListObjectsV2Command({ Bucket: 'tls' }));
    expect(list.Contents?.map((o) => o.Key)).toEqual(['hello.txt']);
  });

  it('is refused by an SDK client that does not trust the CA', async () => {
    const client = s3Client(the.gw.url, the.scene.credentials);
    try {
      await expect(client.send(new ListObjectsV2Command({ Bucket: 'tls' }))).rejects.toMatchObject({
        code: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY/),
      });
    } finally {
      client.destroy();
    }
  });

  it.skipIf(AWS_BIN === undefined)(
    `serves the AWS CLI (${AWS_BIN ?? 'none'}) with --ca-bundle`,
    { timeout: 120_000 },
    async () => {
      const aws = await the.scene.aws();
      const local = the.path('cli-upload.txt');
      await writeFile(local, 'from the CLI over TLS');
      const cp = await aws(['--ca-bundle', tls.ca.caFile, 's3', 'cp', local, 's3://tls/cli.txt']);
      expect(cp.stderr).toBe('');
      expect(cp.code).toBe(0);
      const ls = await aws(['--ca-bundle', tls.ca.caFile, 's3', 'ls', 's3://tls/']);
      expect(ls.code).toBe(0);
      expect(ls.stdout).toMatch(/\bcli\.txt$/m);
      // Without the CA bundle the CLI refuses the certificate.
      const untrusted = await aws(['s3', 'ls', 's3://tls/']);
      expect(untrusted.code).not.toBe(0);
      expect(untrusted.stderr).toMatch(/SSL|certificate/i);
    },
  );

  it('refuses TLS 1.1 in the handshake and negotiates 1.2 and 1.3', async () => {
    // SECLEVEL=0 lets this client offer TLS 1.1 at all, so the refusal seen is the server's alert.
    const old = handshake({ minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' });
    await expect(old).rejects.toMatchObject({ code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' });
    expect((await handshake({ maxVersion: 'TLSv1.2' })).protocol).toBe('TLSv1.2');
    expect((await handshake({ minVersion: 'TLSv1.3' })).protocol).toBe('TLSv1.3');
  });

  it('on SIGHUP serves the new certificate to new connections and keeps an open keep-alive one', async () => {
    const agent = new Agent({ ca: caPem, keepAlive: true, maxSockets: 1 });
    try {
      const before = await getHealth(agent);
      expect(before.status).toBe(200);
      expect(before.certCN).toBe(first.commonName);
      expect((await handshake()).cert.subject.CN).toBe(first.commonName);

      await copyFile(second.certFile, certFile);
      await copyFile(second.keyFile, keyFile);
      the.gw.child.kill('SIGHUP');
      await until('the reload log line', () => the.gw.stderr().includes('TLS certificate reloaded'));

      // A fresh connection gets the second certificate ...
      expect((await handshake()).cert.subject.CN).toBe(second.commonName);
      // ... while the keep-alive connection opened before goes on, on the same socket and session.
      const after = await getHealth(agent);
      expect(after.status).toBe(200);
      expect(after.reused).toBe(true);
      expect(after.socket).toBe(before.socket);
      expect(after.certCN).toBe(first.commonName);
    } finally {
      agent.destroy();
    }
  });

  it('keeps the running certificate when SIGHUP finds a broken key, and says so', async () => {
    await writeFile(keyFile, 'not a key\n');
    the.gw.child.kill('SIGHUP');
    await until('the failed-reload log line', () => the.gw.stderr().includes('TLS reload failed'));
    expect(the.gw.stderr()).toMatch(
      /TLS reload failed, keeping the current certificate: --key \S+ is not a PEM private key/,
    );
    expect((await handshake()).cert.subject.CN).toBe(second.commonName);
    expect(the.gw.child.exitCode).toBeNull();
    await copyFile(second.keyFile, keyFile);
  });
});

describe('vgwrdma --cert --key: bad files stop the start', () => {
  const start = (args: readonly string[]) =>
    runMain(['--port', '127.0.0.1:0', '-a', 'ak', '-s', 'sk', ...args, 'posix', the.scene.dir]);

  it('names a missing certificate file (exit 1)', async () => {
    const r = await start(['--cert', the.path('missing.pem'), '--key', first.keyFile]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^vgwrdma: cannot read --cert \S+missing\.pem: no such file$/m);
  });

  it('names a certificate file that holds no certificate (exit 1)', async () => {
    const r = await start(['--cert', first.keyFile, '--key', first.keyFile]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^vgwrdma: --cert \S+ is not a PEM certificate \(/m);
  });

  it('names a key that does not belong to the certificate (exit 1)', async () => {
    const r = await start(['--cert', first.certFile, '--key', second.keyFile]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^vgwrdma: --key \S+ is not the private key of --cert \S+ \(/m);
  });

  it('refuses --cert without --key, and VGW_KEY without VGW_CERT (exit 2)', async () => {
    const r = await start(['--cert', first.certFile]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cert needs --key too/);
    const env = await runMain(['--port', '127.0.0.1:0', '-a', 'ak', '-s', 'sk', 'posix', the.scene.dir], {
      VGW_KEY: first.keyFile,
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/--key needs --cert too/);
  });

  it('takes the pair from VGW_CERT / VGW_KEY', async () => {
    const viaEnv = await startScene({ env: { VGW_CERT: first.certFile, VGW_KEY: first.keyFile } });
    try {
      expect(viaEnv.url).toMatch(/^https:/);
    } finally {
      await viaEnv.stop();
    }
  });
});
