// The built `vgwrdma` bin as an operator meets it: help and version, bad command lines (exit 2,
// message naming the flag), start-up failures, the banner on stdout with logs kept off it, the
// health path, and a clean exit 0 on SIGTERM.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  HeadObjectCommand,
  PutBucketAclCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { APP_MAIN, ROOT_CREDENTIALS, removeDir, runMain, s3Client, startGateway } from '@vgwrdma/test-kit';
import { appWorkDir } from '@vgwrdma/test-kit/scene';
import { describe, expect, it, vi } from 'vitest';

const creds = { ROOT_ACCESS_KEY_ID: 'ak', ROOT_SECRET_ACCESS_KEY: 'sk' };
/** The file's temp folder (the build checked first; children killed and the folder removed at the end). */
const work = appWorkDir('vgwrdma-cli-');

describe('vgwrdma bin', () => {
  it('starts with a node shebang', () => {
    expect(readFileSync(APP_MAIN, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('prints usage for --help, -h and posix --help, exit 0', async () => {
    const help = await runMain(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('vgwrdma [global flags] posix [posix flags] <root>');
    expect(help.stdout).toMatch(/-p, --port ADDR/);
    expect(help.stdout).toContain('ROOT_ACCESS_KEY_ID');
    expect((await runMain(['-h'])).stdout).toBe(help.stdout);
    const posix = await runMain(['posix', '--help']);
    expect(posix.code).toBe(0);
    expect(posix.stdout).toMatch(/--sidecar DIR/);
    expect(posix.stdout).toContain('VGW_META_SIDECAR');
  });

  it('prints its version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const result = await runMain(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`vgwrdma ${pkg.version}`);
  });

  it('exits 2 naming an unknown flag', async () => {
    const result = await runMain(['--no-such-flag', 'posix', work()], creds);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--no-such-flag');
    expect(result.stdout).toBe('');
  });

  it('exits 2 naming a flag with a bad value, from the command line or the environment', async () => {
    const bad = await runMain(['--port', 'not-an-address', 'posix', work()], creds);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port.*not-an-address/s);
    const fromEnv = await runMain(['posix', work()], { ...creds, VGW_DIR_PERMS: '9z' });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/--dir-perms from VGW_DIR_PERMS/);
  });

  it('exits 2 when the root credentials are missing', async () => {
    const result = await runMain(['posix', work()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/access and secret key must be provided/);
    expect(result.stderr).toContain('ROOT_ACCESS_KEY_ID');
  });

  it('refuses a root that does not exist', async () => {
    const missing = join(work(), 'does-not-exist');
    const result = await runMain(['--port', '127.0.0.1:0', 'posix', missing], creds);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${missing} does not exist`);
  });

  it.skipIf(!existsSync('/sys/kernel'))(
    'refuses a root without user xattrs, suggesting --sidecar',
    async () => {
      // sysfs keeps no user.* attributes: the start-up probe fails before anything is written.
      const result = await runMain(['--port', '127.0.0.1:0', 'posix', '/sys/kernel'], creds);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/extended attributes/);
      expect(result.stderr).toContain('--sidecar');
    },
  );

  it('keeps metadata in files with posix --sidecar', async () => {
    const root = join(work(), 'sidecar-root');
    const meta = join(work(), 'sidecar-meta');
    await mkdir(root);
    await mkdir(meta);
    const gw = await startGateway({ root, posixArgs: ['--sidecar', meta] });
    expect(gw.stdout()).toMatch(/backend:\s+posix \(sidecar metadata in .*sidecar-meta\)/);
    const client = s3Client(gw.url, ROOT_CREDENTIALS);
    await client.send(new CreateBucketCommand({ Bucket: 'side' }));
    await client.send(
      new PutObjectCommand({
        Bucket: 'side',
        Key: 'k/obj',
        Body: 'sidecar body',
        ContentType: 'text/x-side',
      }),
    );
    const head = await client.send(new HeadObjectCommand({ Bucket: 'side', Key: 'k/obj' }));
    expect(head.ContentType).toBe('text/x-side');
    expect(readFileSync(join(root, 'side/k/obj'), 'utf8')).toBe('sidecar body');
    expect(readFileSync(join(meta, 'side/k/obj/meta/content-type'), 'utf8')).toBe('text/x-side');
    client.destroy();
    expect(await gw.stop()).toEqual({ code: 0, signal: null });
  });

  it('refuses a port already in use', async () => {
    const first = await startGateway();
    const second = await runMain(['--port', `127.0.0.1:${first.port}`, 'posix', first.root], creds);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already in use/);
    expect(await first.stop()).toEqual({ code: 0, signal: null });
    await removeDir(first.root);
  });

  it('serves, keeps logs off stdout, answers the health path, and exits 0 on SIGTERM', async () => {
    const root = join(work(), 'served');
    await mkdir(root);
    const gw = await startGateway({ root, globalArgs: ['--health', '/healthz'] });
    expect(gw.stdout()).toMatch(/^\s*root:\s+.*served$/m);
    expect(gw.stdout()).toMatch(new RegExp(`^\\s*access key:\\s+${ROOT_CREDENTIALS.access}$`, 'm'));
    // The secret is not the public npm-start default, so it must not be printed.
    expect(gw.stdout()).not.toContain(ROOT_CREDENTIALS.secret);
    const health = await fetch(`${gw.url}/healthz`);
    expect(health.status).toBe(200);
    const unsigned = await fetch(`${gw.url}/`);
    expect(unsigned.status).toBe(403);
    const exit = await gw.stop('SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    // Every stdout line belongs to the banner; pino's JSON lines went to stderr.
    expect(
      gw
        .stdout()
        .split('\n')
        .some((line) => line.startsWith('{')),
    ).toBe(false);
    expect(gw.stderr()).toMatch(/"msg":"shutting down"/);
  });

  it('writes one access-log line per request to --access-log FILE, none to stderr', async () => {
    const file = join(work(), 'logs', 'access.log');
    const gw = await startGateway({ globalArgs: ['--access-log', file] });
    const client = s3Client(gw.url, ROOT_CREDENTIALS);
    await client.send(new CreateBucketCommand({ Bucket: 'logged' }));
    client.destroy();
    expect(await gw.stop()).toEqual({ code: 0, signal: null });
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      lines.some(
        (l) => l.msg === 'request' && l.method === 'PUT' && l.url === '/logged/' && l.status === 200,
      ),
    ).toBe(true);
    expect(gw.stderr()).not.toMatch(/"msg":"request"/);
    await removeDir(gw.root);
  });

  it('waits for an in-flight upload on SIGTERM, and exits at once (143) on a second SIGTERM', async () => {
    const gw = await startGateway();
    const client = s3Client(gw.url, ROOT_CREDENTIALS);
    await client.send(new CreateBucketCommand({ Bucket: 'slow' }));
    const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: 'slow', Key: 'held' }), {
      expiresIn: 300,
    });
    client.destroy();
    // An upload that declares 1 MiB and sends 1 byte keeps a request in flight. With
    // `Expect: 100-continue`, Node answers 100 only once the request reached the handler.
    const req = request(url, {
      method: 'PUT',
      headers: { 'content-length': String(1 << 20), expect: '100-continue' },
    });
    req.on('error', () => {});
    req.flushHeaders();
    await new Promise<void>((done) => req.once('continue', () => done()));
    await new Promise<void>((done) => req.write('x', () => done()));
    gw.child.kill('SIGTERM');
    await vi.waitFor(() => expect(gw.stderr()).toMatch(/"msg":"shutting down"/), {
      timeout: 15_000,
      interval: 50,
    });
    // Still serving the held request: the graceful close has not finished.
    expect(gw.child.exitCode).toBeNull();
    gw.child.kill('SIGTERM');
    expect(await gw.exited).toEqual({ code: 143, signal: null });
    req.destroy();
    await removeDir(gw.root);
  });

  it('exits 0 on SIGINT too', async () => {
    const gw = await startGateway();
    expect(await gw.stop('SIGINT')).toEqual({ code: 0, signal: null });
    await removeDir(gw.root);
  });

  it('prints the default secret only when it is the npm start default', async () => {
    const gw = await startGateway({
      globalArgs: ['--access', 'vgwrdma', '--secret', 'vgwrdma-secret'],
    });
    expect(gw.stdout()).toMatch(/^\s*secret key:\s+vgwrdma-secret$/m);
    await gw.stop();
    await removeDir(gw.root);
  });

  it('serves virtual-host style requests with --virtual-domain', async () => {
    const gw = await startGateway({ globalArgs: ['--virtual-domain', 'vgw.test'] });
    // Presigned URLs for <bucket>.vgw.test, sent to the loopback address with that Host header
    // (the name needs no DNS): the gateway must take the bucket from the host name.
    const endpoint = `http://vgw.test:${gw.port}`;
    const vhost = s3Client(endpoint, ROOT_CREDENTIALS, { forcePathStyle: false });
    const create = await getSignedUrl(vhost, new CreateBucketCommand({ Bucket: 'vhost' }));
    const put = await getSignedUrl(vhost, new PutObjectCommand({ Bucket: 'vhost', Key: 'a/b' }));
    vhost.destroy();
    expect(new URL(put).host).toBe(`vhost.vgw.test:${gw.port}`);
    expect(await sendToLoopback(create, gw.port, 'PUT')).toBe(200);
    expect(await sendToLoopback(put, gw.port, 'PUT', 'by host name')).toBe(200);
    expect(readFileSync(join(gw.root, 'vhost/a/b'), 'utf8')).toBe('by host name');
    await gw.stop();
    await removeDir(gw.root);
  });

  it('refuses PutBucketAcl with --noacl (versitygw --disable-acl)', async () => {
    const gw = await startGateway({ globalArgs: ['--noacl'] });
    expect(gw.stdout()).toMatch(/^\s*acl:\s+disabled$/m);
    const client = s3Client(gw.url, ROOT_CREDENTIALS);
    await client.send(new CreateBucketCommand({ Bucket: 'noacl' }));
    await expect(
      client.send(new PutBucketAclCommand({ Bucket: 'noacl', ACL: 'private' })),
    ).rejects.toMatchObject({
      name: 'AccessControlListNotSupported',
    });
    client.destroy();
    await gw.stop();
    await removeDir(gw.root);
  });

  it('refuses writes with --readonly', async () => {
    const gw = await startGateway({ globalArgs: ['--readonly'] });
    const client = s3Client(gw.url, ROOT_CREDENTIALS);
    await expect(client.send(new CreateBucketCommand({ Bucket: 'nope' }))).rejects.toMatchObject({
      name: 'AccessDenied',
    });
    client.destroy();
    await gw.stop();
    await removeDir(gw.root);
  });
});

/** Sends a request for `url` to 127.0.0.1:port, keeping the URL's host as the Host header. */
function sendToLoopback(url: string, port: number, method: string, body = ''): Promise<number | undefined> {
  const target = new URL(url);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `${target.pathname}${target.search}`,
        headers: { host: target.host, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}
