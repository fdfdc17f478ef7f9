// The versitygw flags of issue 23 through the built app, with real clients: --mp-max-parts,
// --copy-object-threshold and --cors-allow-origin (the AWS SDK and plain fetch as a browser
// would send), posix --file-perms and --concurrency (the files on disk; a stalled upload holding
// the only slot), --admin-port with and without its own TLS pair (the admin API answers there and
// nowhere else), and a unix socket listener with --socket-perm (a signed request over the socket).

import { lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListBucketsCommand,
  PutBucketCorsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import {
  adminRequest,
  collectOutput,
  corsPreflight,
  exitOf,
  type GatewayProcess,
  httpText,
  ROOT_CREDENTIALS,
  type Scene,
  s3Client,
  sceneTls,
  signHeaders,
  spawnMain,
  waitForStdout,
} from '@vgwrdma/test-kit';
import {
  appWorkDir,
  expectS3Error,
  rejectionOf,
  scenePool,
  sceneRef,
  sceneTest,
} from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { openHeldRequest, statusOf } from './helpers/held-request.js';

const ORIGIN = 'https://app.example.com';
const work = appWorkDir('vgwrdma-flags-');
const startPooled = scenePool();

function gateway(globalArgs: string[], posixArgs: string[] = []): Promise<Scene> {
  return startPooled({ globalArgs, posixArgs });
}

/** `p` fails with S3 error `code` and `status`, and says `message`. */
async function expectFailure(
  p: Promise<unknown>,
  code: string,
  status: number,
  message: string,
): Promise<void> {
  expect((await expectS3Error(p, code, status)).message).toBe(message);
}

const flags = sceneTest({
  globalArgs: ['--mp-max-parts', '3', '--copy-object-threshold', '1000', '--cors-allow-origin', ORIGIN],
  buckets: ['flags'],
});

describe('--mp-max-parts, --copy-object-threshold, --cors-allow-origin', () => {
  const the = sceneRef(flags);

  it('--mp-max-parts 3: part 3 is stored, part 4 is 400 InvalidArgument naming the range', async () => {
    const s3 = the.s3;
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'flags', Key: 'mp' }));
    const ok = await s3.send(
      new UploadPartCommand({ Bucket: 'flags', Key: 'mp', UploadId, PartNumber: 3, Body: 'x' }),
    );
    expect(ok.ETag).toBeTruthy();
    await expectFailure(
      s3.send(new UploadPartCommand({ Bucket: 'flags', Key: 'mp', UploadId, PartNumber: 4, Body: 'x' })),
      'InvalidArgument',
      400,
      'Part number must be an integer between 1 and 3, inclusive',
    );
  });

  it('--copy-object-threshold 1000: a 1000-byte source copies, a 1001-byte one is 400 InvalidRequest', async () => {
    const s3 = the.s3;
    await s3.send(new PutObjectCommand({ Bucket: 'flags', Key: 'small', Body: 'a'.repeat(1000) }));
    await s3.send(new PutObjectCommand({ Bucket: 'flags', Key: 'big', Body: 'b'.repeat(1001) }));
    const copied = await s3.send(
      new CopyObjectCommand({ Bucket: 'flags', Key: 'c1', CopySource: 'flags/small' }),
    );
    expect(copied.CopyObjectResult?.ETag).toBeTruthy();
    await expectFailure(
      s3.send(new CopyObjectCommand({ Bucket: 'flags', Key: 'c2', CopySource: 'flags/big' })),
      'InvalidRequest',
      400,
      'The specified copy source is larger than the maximum allowable size for a copy source: 1000',
    );
  });

  it('--cors-allow-origin: a bucket without CORS answers that origin (actual and preflight), no other; its own CORS replaces it', async () => {
    const gw = the.gw;
    const url = `${gw.url}/flags/small`;
    // A public read needs no signature for a preflight; the actual GET is signed (any answer carries CORS).
    const preflight = await corsPreflight(url, ORIGIN, 'PUT', 'x-amz-date');
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    const signed = await signHeaders({
      baseUrl: gw.url,
      credentials: ROOT_CREDENTIALS,
      method: 'GET',
      path: '/flags/small',
    });
    const actual = await fetch(url, { headers: { ...signed, origin: ORIGIN } });
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(actual.headers.get('access-control-expose-headers')).toContain('ETag');
    const anonymous = await fetch(url, { headers: { origin: ORIGIN } }); // refused, but a browser may read why
    expect(anonymous.status).toBe(403);
    expect(anonymous.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const other = await fetch(url, { headers: { ...signed, origin: 'https://evil.example.net' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const otherPreflight = await corsPreflight(url, 'https://evil.example.net');
    expect(otherPreflight.status).toBe(403);

    await the.s3.send(
      new PutBucketCorsCommand({
        Bucket: 'flags',
        CORSConfiguration: {
          CORSRules: [{ AllowedOrigins: ['https://own.example.org'], AllowedMethods: ['GET'] }],
        },
      }),
    );
    const replaced = await fetch(url, { headers: { ...signed, origin: ORIGIN } });
    expect(replaced.headers.get('access-control-allow-origin')).toBeNull();
    const own = await fetch(url, { headers: { ...signed, origin: 'https://own.example.org' } });
    expect(own.headers.get('access-control-allow-origin')).toBe('https://own.example.org');
  });
});

describe('posix --file-perms and --concurrency', () => {
  it('--file-perms 0600: a new object file has exactly that mode (past the umask); the default is 0644', async () => {
    const custom = await gateway([], ['--file-perms', '0600']);
    const plain = await gateway([]);
    for (const [gw, mode] of [
      [custom, 0o600],
      [plain, 0o644],
    ] as const) {
      const s3 = gw.s3;
      await s3.send(new CreateBucketCommand({ Bucket: 'perms' }));
      await s3.send(new PutObjectCommand({ Bucket: 'perms', Key: 'dir/obj', Body: 'data' }));
      const st = await stat(join(gw.root, 'perms', 'dir', 'obj'));
      expect(st.mode & 0o777).toBe(mode);
    }
  });

  it('--chuid --chgid: new files and the directories made for them belong to the account (users.json ids)', async (ctx) => {
    if (process.getuid?.() !== 0)
      return ctx.skip('chown to another user needs root (or CAP_CHOWN); this runs as a normal user');
    const iam = join(work(), 'chown-iam');
    await mkdir(iam, { recursive: true });
    const user = { access: 'chown-user', secret: 'chown-user-secret-0123' };
    await writeFile(
      join(iam, 'users.json'),
      JSON.stringify({
        accessAccounts: {
          [user.access]: { ...user, role: 'userplus', userID: 4242, groupID: 4343, projectID: 0 },
        },
      }),
    );
    const both = await gateway(['--iam-dir', iam], ['--chuid', '--chgid']);
    const uidOnly = await gateway(['--iam-dir', iam], ['--chuid']);
    const plain = await gateway(['--iam-dir', iam]);
    for (const [gw, uid, gid] of [
      [both, 4242, 4343],
      [uidOnly, 4242, 0],
      [plain, 0, 0],
    ] as const) {
      const s3 = gw.client(user);
      await s3.send(new CreateBucketCommand({ Bucket: 'owned' }));
      await s3.send(new PutObjectCommand({ Bucket: 'owned', Key: 'new/dir/obj', Body: 'data' }));
      const { UploadId } = await s3.send(
        new CreateMultipartUploadCommand({ Bucket: 'owned', Key: 'mp/obj' }),
      );
      await s3.send(
        new UploadPartCommand({ Bucket: 'owned', Key: 'mp/obj', UploadId, PartNumber: 1, Body: 'p' }),
      );
      for (const rel of ['new', 'new/dir', 'new/dir/obj']) {
        const st = await stat(join(gw.root, 'owned', rel));
        expect([rel, st.uid, st.gid]).toEqual([rel, uid, gid]);
      }
      // the root account has no userID: its files keep the gateway's owner
      await gw.s3.send(new PutObjectCommand({ Bucket: 'owned', Key: 'byroot', Body: 'r' }));
      expect((await stat(join(gw.root, 'owned', 'byroot'))).uid).toBe(0);
    }
  });

  it('--bucketlinks: a symlinked bucket directory serves its target; no key leaves the target, links below it included', async () => {
    const target = join(work(), 'link-target');
    const secret = join(work(), 'link-secret');
    await mkdir(target, { recursive: true });
    await mkdir(secret, { recursive: true });
    await writeFile(join(secret, 'file'), 'outside the bucket');
    await writeFile(join(target, 'inside'), 'in the target');
    await symlink(secret, join(target, 'escape')); // a link below the bucket that leads out of it
    const linked = await gateway([], ['--bucketlinks']);
    const unlinked = await gateway([]);
    for (const gw of [linked, unlinked]) await symlink(target, join(gw.root, 'linked'));
    await mkdir(join(linked.root, 'plain'));
    await symlink(join(linked.root, 'plain'), join(target, 'sideways')); // to another bucket of the root

    const s3 = linked.s3;
    const names = (await s3.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name);
    expect(names).toEqual(['linked', 'plain']);
    const got = await s3.send(new GetObjectCommand({ Bucket: 'linked', Key: 'inside' }));
    expect(await got.Body?.transformToString()).toBe('in the target');
    await s3.send(new PutObjectCommand({ Bucket: 'linked', Key: 'new/obj', Body: 'written' }));
    expect(await readFile(join(target, 'new', 'obj'), 'utf8')).toBe('written');
    for (const key of ['escape/file', 'sideways/x']) {
      await expectS3Error(s3.send(new GetObjectCommand({ Bucket: 'linked', Key: key })), 'AccessDenied');
    }
    await expectS3Error(
      s3.send(new PutObjectCommand({ Bucket: 'linked', Key: 'escape/planted', Body: 'x' })),
      'AccessDenied',
    );
    expect(await readdir(secret)).toEqual(['file']);

    // without the flag a symlinked bucket is no bucket, and nothing under it is reachable
    const plain = unlinked.s3;
    expect((await plain.send(new ListBucketsCommand({}))).Buckets ?? []).toEqual([]);
    const refused = await rejectionOf<{ name: string }>(
      plain.send(new GetObjectCommand({ Bucket: 'linked', Key: 'inside' })),
    );
    expect(['AccessDenied', 'NoSuchBucket']).toContain(refused.name);
  });

  /** Starts a PUT of 8 bytes that sends 4 and stalls until `finish()` is called. */
  async function stalledPut(gw: Scene, key: string) {
    const put = await openHeldRequest(gw.url, {
      method: 'PUT',
      path: `/conc/${key}`,
      contentLength: 8,
      credentials: ROOT_CREDENTIALS,
    });
    put.send('1234');
    return { done: put.closed.then(statusOf), finish: () => put.send('5678') };
  }

  it('--concurrency 1: while a stalled upload holds the one slot another PUT waits; it finishes after', async () => {
    const limited = await gateway([], ['--concurrency', '1']);
    const control = await gateway([]); // default 5000: the second PUT does not wait
    for (const gw of [limited, control]) {
      const s3 = gw.s3;
      await s3.send(new CreateBucketCommand({ Bucket: 'conc' }));
      const slow = await stalledPut(gw, 'slow');
      await new Promise((r) => setTimeout(r, 300)); // the slow PUT reaches the backend first
      let quickDone = false;
      const quick = s3.send(new PutObjectCommand({ Bucket: 'conc', Key: 'quick', Body: 'q' })).then(() => {
        quickDone = true;
      });
      await new Promise((r) => setTimeout(r, 1500));
      expect(quickDone, gw === limited ? 'limited: must wait' : 'control: must not wait').toBe(
        gw !== limited,
      );
      slow.finish();
      expect(await slow.done).toBe(200);
      await quick;
      expect(quickDone).toBe(true);
      expect(await readFile(join(gw.root, 'conc', 'slow'), 'utf8')).toBe('12345678');
    }
  });
});

/** The admin listener's URL from the banner's `admin:` line. */
function adminUrl(gw: GatewayProcess): string {
  const m = /^\s*admin:\s+(https?:\/\/\S+)/m.exec(gw.stdout());
  if (!m?.[1]) throw new Error(`no admin line in the banner:\n${gw.stdout()}`);
  return m[1];
}

describe('--admin-port', () => {
  it('the admin API answers on its own listener only; S3 requests there are refused', async () => {
    const scene = await gateway(['--admin-port', '127.0.0.1:0']);
    const gw = scene.gw;
    const admin = adminUrl(gw);
    expect(admin).not.toBe(gw.url);
    const listed = await adminRequest(admin, ROOT_CREDENTIALS, 'list-users');
    expect(listed.status).toBe(200);
    const onS3 = await adminRequest(gw.url, ROOT_CREDENTIALS, 'list-users');
    expect(onS3.status).toBe(501);
    expect(onS3.text).toContain('<Code>NotImplemented</Code>');
    expect(onS3.text).toContain('--admin-port');
    const s3OnAdmin = await s3Client(admin, ROOT_CREDENTIALS)
      .send(new CreateBucketCommand({ Bucket: 'nope' }))
      .then(
        () => 0,
        (e: { $metadata: { httpStatusCode: number } }) => e.$metadata.httpStatusCode,
      );
    expect(s3OnAdmin).toBe(501);
    // the S3 listener still serves S3
    await scene.s3.send(new CreateBucketCommand({ Bucket: 'yes' }));
    // a gateway without --admin-port serves the admin API on the S3 port, as before
    const plain = await gateway([]);
    expect((await adminRequest(plain.url, ROOT_CREDENTIALS, 'list-users')).status).toBe(200);
  });

  it('--admin-cert / --admin-cert-key: the admin listener speaks HTTPS, the S3 listener stays HTTP', async () => {
    const tls = await sceneTls(work(), 'admin.vgwrdma.test');
    const { gw } = await gateway([
      '--admin-port',
      '127.0.0.1:0',
      '--admin-cert',
      tls.cert.certFile,
      '--admin-cert-key',
      tls.cert.keyFile,
    ]);
    const admin = adminUrl(gw);
    expect(admin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(gw.url).toMatch(/^http:\/\//);
    const headers = await signHeaders({
      baseUrl: admin,
      credentials: ROOT_CREDENTIALS,
      method: 'PATCH',
      path: '/list-users',
    });
    const caPem = tls.caPem;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(`${admin}/list-users`, {
        method: 'PATCH',
        headers,
        ca: caPem,
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });
});

describe('a unix socket listener', () => {
  it('--port unix:/path --socket-perm 0600: the socket has that mode and serves signed S3 requests', async () => {
    const sock = join(work(), 's3.sock');
    const sockRoot = join(work(), 'sock-root');
    await mkdir(sockRoot);
    const child = spawnMain([
      '--port',
      `unix:${sock}`,
      '--socket-perm',
      '0600',
      '--access',
      ROOT_CREDENTIALS.access,
      '--secret',
      ROOT_CREDENTIALS.secret,
      'posix',
      sockRoot,
    ]);
    const out = collectOutput(child);
    const exited = exitOf(child);
    try {
      await waitForStdout(child, out, exited, /^\s*endpoint:\s+(unix:\S+)$/m, 'the gateway banner');
      expect(out.stdout()).toMatch(/listening:\s+unix socket /);
      const st = await lstat(sock);
      expect(st.isSocket()).toBe(true);
      expect(st.mode & 0o777).toBe(0o600);
      const baseUrl = 'http://localhost';
      const headers = await signHeaders({
        baseUrl,
        credentials: ROOT_CREDENTIALS,
        method: 'PUT',
        path: '/viasock',
      });
      const send = (method: string, h: Record<string, string>, path: string) =>
        httpText({ socketPath: sock, method, path, headers: h });
      expect((await send('PUT', headers, '/viasock')).status).toBe(200);
      const list = await send(
        'GET',
        await signHeaders({ baseUrl, credentials: ROOT_CREDENTIALS, method: 'GET', path: '/' }),
        '/',
      );
      expect(list.status).toBe(200);
      expect(list.body).toContain('<Name>viasock</Name>');
      const unsigned = await send('GET', { host: 'localhost' }, '/');
      expect(unsigned.status).toBe(403); // the socket is no way around authentication
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    await expect(lstat(sock)).rejects.toThrow(/ENOENT/); // removed on shutdown
  });
});
