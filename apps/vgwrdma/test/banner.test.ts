// The banner prints the public default secret and hides every other one; the endpoint line is
// the one scripts parse.
import { describe, expect, it } from 'vitest';
import { formatBanner } from '../src/banner.js';
import type { GatewayConfig } from '../src/config.js';
import { DEFAULT_CREDENTIALS } from '../src/defaults.js';
import { endpointUrl, parseListenAddress } from '../src/listen-address.js';

const base: GatewayConfig = {
  listen: { host: '0.0.0.0', port: 0, wildcard: true },
  limits: { maxConnections: 0, maxRequests: 0, bodyIdleTimeoutMs: 0, shutdownTimeoutMs: 30_000 },
  metricsPerBucket: false,
  access: 'AK',
  secret: 'a-private-secret',
  region: 'us-east-1',
  bucketCacheTtlMs: 5000,
  readonly: false,
  disableAcl: false,
  quiet: false,
  debug: false,
  accessLogFormat: 'json',
  requests: { maxParts: 10_000, copyObjectThreshold: 5 * 1024 ** 3 },
  backend: {
    kind: 'posix',
    root: '/srv/data',
    nometa: false,
    dirPerms: 0o755,
    filePerms: 0o644,
    chownUid: false,
    chownGid: false,
    bucketLinks: false,
    concurrency: 5000,
    etagMode: { kind: 'md5' },
  },
};

describe('formatBanner', () => {
  it('hides a secret that is not the npm start default', () => {
    const text = formatBanner({ config: base, host: '0.0.0.0', port: 7071 });
    expect(text).not.toContain('a-private-secret');
    expect(text).toMatch(/^\s+endpoint:\s+http:\/\/127\.0\.0\.1:7071$/m);
    expect(text).toMatch(/^\s+root:\s+\/srv\/data$/m);
    expect(text).toMatch(/^\s+access key:\s+AK$/m);
  });

  it('prints the default secret', () => {
    const config = { ...base, ...DEFAULT_CREDENTIALS };
    expect(formatBanner({ config, host: '127.0.0.1', port: 1 })).toMatch(/secret key:\s+vgwrdma-secret$/m);
  });
});

describe('listen addresses', () => {
  it('accepts versitygw forms and rejects others', () => {
    expect(parseListenAddress(':7070')).toEqual({ host: '0.0.0.0', port: 7070, wildcard: true });
    expect(parseListenAddress('localhost:80')).toEqual({ host: 'localhost', port: 80, wildcard: false });
    expect(typeof parseListenAddress('7070')).toBe('string');
    expect(typeof parseListenAddress('host:')).toBe('string');
    expect(typeof parseListenAddress('::1:80')).toBe('string');
  });

  it('takes a unix socket as /path (versitygw), unix:/path or @name; never a relative path', () => {
    const unix = { host: '', port: 0, wildcard: false };
    expect(parseListenAddress('/run/vgw/s3.sock')).toEqual({ ...unix, socketPath: '/run/vgw/s3.sock' });
    expect(parseListenAddress('unix:/run/vgw/s3.sock')).toEqual({ ...unix, socketPath: '/run/vgw/s3.sock' });
    expect(parseListenAddress('@vgw-s3')).toEqual({ ...unix, socketPath: '@vgw-s3' });
    expect(parseListenAddress('unix:run/s3.sock')).toMatch(/must be absolute/);
    expect(parseListenAddress('@')).toMatch(/names no socket/);
  });

  it('the banner names a socket listener and the admin listener', () => {
    const config: GatewayConfig = {
      ...base,
      listen: { host: '', port: 0, wildcard: false, socketPath: '/run/s3.sock' },
      admin: { listen: { host: '127.0.0.1', port: 0, wildcard: false } },
    };
    const text = formatBanner({
      config,
      host: '/run/s3.sock',
      port: 0,
      admin: { host: '127.0.0.1', port: 7080 },
    });
    expect(text).toMatch(/^\s+endpoint:\s+unix:\/run\/s3\.sock$/m);
    expect(text).toMatch(/^\s+listening:\s+unix socket \/run\/s3\.sock$/m);
    expect(text).toMatch(/^\s+admin:\s+http:\/\/127\.0\.0\.1:7080 \(admin API only/m);
  });

  it('formats client URLs', () => {
    expect(endpointUrl('::', 5)).toBe('http://127.0.0.1:5');
    expect(endpointUrl('::1', 5)).toBe('http://[::1]:5');
  });
});
