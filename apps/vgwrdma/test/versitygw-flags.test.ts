// The versitygw flags added for issue 23 (listener-flags.ts, the gateway's gateway-settings.ts, backend-posix options-schema.ts):
// versitygw's names, aliases and environment variables, their defaults, and errors that name the
// flag. What each does is tested end to end in versitygw-flags.e2e.test.ts.

import type { Env } from '@vgwrdma/cli-options';
import { describe, expect, it } from 'vitest';
import { globalUsage, posixUsage } from '../src/usage.js';
import { ROOT_ENV, serveConfig, usageError as usageErrorOf } from './helpers/command-line.js';

/** With the root keys, and whatever else the test adds to the environment. */
const serve = (argv: string[], env: Env = {}) => serveConfig(argv, { ...ROOT_ENV, ...env });
const usageError = (argv: string[], env: Env = {}) => usageErrorOf(argv, { ...ROOT_ENV, ...env });

describe('--admin-port, --admin-cert, --admin-cert-key, --socket-perm', () => {
  it('--admin-port / --ap / VGW_ADMIN_PORT; its TLS pair resolved against the cwd', () => {
    expect(serve(['--admin-port', '127.0.0.1:7080', 'posix', 'r']).admin).toEqual({
      listen: { host: '127.0.0.1', port: 7080, wildcard: false },
    });
    expect(serve(['--ap', ':7080', 'posix', 'r']).admin?.listen.port).toBe(7080);
    const fromEnv = serve(['posix', 'r'], {
      VGW_ADMIN_PORT: '/run/adm.sock',
      VGW_ADMIN_CERT: 'a.pem',
      VGW_ADMIN_CERT_KEY: 'a.key',
    });
    expect(fromEnv.admin).toEqual({
      listen: { host: '', port: 0, wildcard: false, socketPath: '/run/adm.sock' },
      tls: { certFile: '/cwd/a.pem', keyFile: '/cwd/a.key' },
    });
  });

  it('the admin TLS pair goes together, and only with --admin-port', () => {
    expect(usageError(['--admin-port', ':1', '--admin-cert', 'c', 'posix', 'r'])).toMatch(
      /--admin-cert needs --admin-cert-key too/,
    );
    expect(usageError(['--admin-cert', 'c', '--admin-cert-key', 'k', 'posix', 'r'])).toMatch(
      /need --admin-port/,
    );
    expect(usageError(['--admin-port', 'bogus', 'posix', 'r'])).toMatch(/--admin-port \(--ap\)/);
  });

  it('--port takes a unix socket; --socket-perm / VGW_SOCKET_PERM is octal', () => {
    const c = serve(['--port', 'unix:/tmp/s3.sock', '--socket-perm', '0660', 'posix', 'r']);
    expect(c.listen.socketPath).toBe('/tmp/s3.sock');
    expect(c.socketPerm).toBe(0o660);
    expect(serve(['posix', 'r'], { VGW_SOCKET_PERM: '600' }).socketPerm).toBe(0o600);
    expect(usageError(['--socket-perm', '0999', 'posix', 'r'])).toMatch(/--socket-perm.*octal/s);
    expect(usageError(['--metrics-port', '/tmp/m.sock', 'posix', 'r'])).toMatch(/not a unix socket/);
  });
});

describe('--mp-max-parts, --copy-object-threshold, --cors-allow-origin', () => {
  it('defaults are S3 limits; flags and versitygw environment variables set them', () => {
    expect(serve(['posix', 'r']).requests).toEqual({ maxParts: 10_000, copyObjectThreshold: 5 * 1024 ** 3 });
    expect(
      serve([
        '--mp-max-parts',
        '3',
        '--copy-object-threshold',
        '1048576',
        '--cors-allow-origin',
        '*',
        'posix',
        'r',
      ]).requests,
    ).toEqual({ maxParts: 3, copyObjectThreshold: 1_048_576, corsAllowOrigin: '*' });
    expect(
      serve(['posix', 'r'], {
        VGW_MP_MAX_PARTS: '7',
        VGW_COPY_OBJECT_THRESHOLD: '10',
        VGW_CORS_ALLOW_ORIGIN: 'https://app.example.com',
      }).requests,
    ).toEqual({ maxParts: 7, copyObjectThreshold: 10, corsAllowOrigin: 'https://app.example.com' });
  });

  it('refuses values S3 cannot honour, naming the flag', () => {
    expect(usageError(['--mp-max-parts', '0', 'posix', 'r'])).toMatch(/--mp-max-parts.*from 1 to 10000/s);
    expect(usageError(['--mp-max-parts', '10001', 'posix', 'r'])).toMatch(/--mp-max-parts/);
    expect(usageError(['--copy-object-threshold', '0', 'posix', 'r'])).toMatch(/--copy-object-threshold/);
    expect(usageError(['posix', 'r'], { VGW_COPY_OBJECT_THRESHOLD: '6000000000' })).toMatch(
      /--copy-object-threshold from VGW_COPY_OBJECT_THRESHOLD.*5 GiB/s,
    );
    expect(usageError(['--cors-allow-origin', 'app.example.com/x', 'posix', 'r'])).toMatch(
      /--cors-allow-origin/,
    );
  });
});

describe('posix --file-perms, --concurrency', () => {
  it('defaults 0644 and 5000; flags and VGW_FILE_PERMS / VGW_POSIX_CONCURRENCY', () => {
    expect(serve(['posix', 'r']).backend).toMatchObject({ filePerms: 0o644, concurrency: 5000 });
    expect(serve(['posix', '--file-perms', '0600', '--concurrency', '4', 'r']).backend).toMatchObject({
      filePerms: 0o600,
      concurrency: 4,
    });
    expect(
      serve(['posix', 'r'], { VGW_FILE_PERMS: '0640', VGW_POSIX_CONCURRENCY: '9' }).backend,
    ).toMatchObject({
      filePerms: 0o640,
      concurrency: 9,
    });
    expect(usageError(['posix', '--concurrency', '0', 'r'])).toMatch(/--concurrency.*at least 1/s);
    expect(usageError(['posix', '--file-perms', 'rw', 'r'])).toMatch(/--file-perms/);
  });
});

describe('posix --chuid, --chgid', () => {
  it('off by default; the flags and VGW_CHOWN_UID / VGW_CHOWN_GID turn them on', () => {
    expect(serve(['posix', 'r']).backend).toMatchObject({ chownUid: false, chownGid: false });
    expect(serve(['posix', '--chuid', 'r']).backend).toMatchObject({ chownUid: true, chownGid: false });
    expect(serve(['posix', 'r'], { VGW_CHOWN_UID: 'true', VGW_CHOWN_GID: '1' }).backend).toMatchObject({
      chownUid: true,
      chownGid: true,
    });
    expect(usageError(['posix', 'r'], { VGW_CHOWN_GID: 'maybe' })).toMatch(/--chgid from VGW_CHOWN_GID/);
    expect(serve(['posix', 'r']).backend).toMatchObject({ bucketLinks: false });
    expect(serve(['posix', '--bucketlinks', 'r']).backend).toMatchObject({ bucketLinks: true });
    expect(serve(['posix', 'r'], { VGW_BUCKET_LINKS: 'yes' }).backend).toMatchObject({ bucketLinks: true });
  });
});

describe('--help', () => {
  it('lists every new flag with its environment variable', () => {
    const g = globalUsage();
    for (const [flag, env] of [
      ['--admin-port, --ap', 'VGW_ADMIN_PORT'],
      ['--admin-cert', 'VGW_ADMIN_CERT'],
      ['--admin-cert-key', 'VGW_ADMIN_CERT_KEY'],
      ['--socket-perm', 'VGW_SOCKET_PERM'],
      ['--mp-max-parts', 'VGW_MP_MAX_PARTS'],
      ['--copy-object-threshold', 'VGW_COPY_OBJECT_THRESHOLD'],
      ['--cors-allow-origin', 'VGW_CORS_ALLOW_ORIGIN'],
    ] as const) {
      expect(g).toContain(flag);
      expect(g).toContain(env);
    }
    const p = posixUsage();
    for (const env of [
      'VGW_FILE_PERMS',
      'VGW_POSIX_CONCURRENCY',
      'VGW_CHOWN_UID',
      'VGW_CHOWN_GID',
      'VGW_BUCKET_LINKS',
    ])
      expect(p).toContain(env);
    expect(p).toMatch(/--file-perms MODE .*default 0644/);
    expect(p).toMatch(/--concurrency N .*default 5000/);
  });
});
