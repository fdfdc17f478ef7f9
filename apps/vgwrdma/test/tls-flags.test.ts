// --cert / --key / --ready on the command line: flag and environment (VGW_CERT, VGW_KEY,
// VGW_READY), paths resolved against the working directory, one of the pair alone refused with
// the missing flag named, and the banner's https endpoint and tls/ready rows.

import { UsageError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { formatBanner } from '../src/banner.js';
import { parseCommandLine } from '../src/config.js';
import { endpointUrl } from '../src/listen-address.js';
import { ROOT_ENV, serveConfig } from './helpers/command-line.js';

const creds = ROOT_ENV;
const serve = serveConfig;

describe('--cert / --key / --ready', () => {
  it('takes the pair from flags, resolved against the working directory', () => {
    const config = serve(['--cert', 'tls/cert.pem', '--key', '/etc/key.pem', 'posix', 'data']);
    expect(config.tls).toEqual({ certFile: '/cwd/tls/cert.pem', keyFile: '/etc/key.pem' });
  });

  it('takes the pair and the ready path from VGW_CERT / VGW_KEY / VGW_READY', () => {
    const config = serve(['posix', 'data'], {
      ...creds,
      VGW_CERT: 'c.pem',
      VGW_KEY: 'k.pem',
      VGW_READY: '/ready',
    });
    expect(config.tls).toEqual({ certFile: '/cwd/c.pem', keyFile: '/cwd/k.pem' });
    expect(config.readyPath).toBe('/ready');
  });

  it('serves plain HTTP and no ready path without them', () => {
    const config = serve(['posix', 'data']);
    expect(config.tls).toBeUndefined();
    expect(config.readyPath).toBeUndefined();
  });

  it('refuses one of the pair alone, naming the missing flag', () => {
    expect(() => parseCommandLine(['--key', 'k.pem', 'posix', 'data'], creds)).toThrow(
      new UsageError('--key needs --cert too: HTTPS takes a certificate and its key (VGW_CERT, VGW_KEY)'),
    );
    expect(() => parseCommandLine(['posix', 'data'], { ...creds, VGW_CERT: 'c.pem' })).toThrow(
      /--cert needs --key too/,
    );
  });

  it('refuses a ready path that is not a path', () => {
    expect(() => parseCommandLine(['--ready', 'ready', 'posix', 'data'], creds)).toThrow(
      /invalid --ready "ready":\n.*must be a path/,
    );
  });

  it('shows https and the tls and ready rows in the banner', () => {
    const config = serve([
      '--cert',
      '/c.pem',
      '--key',
      '/k.pem',
      '--ready',
      '/ready',
      '--port',
      '127.0.0.1:0',
      'posix',
      'd',
    ]);
    const text = formatBanner({ config, host: '127.0.0.1', port: 8443 });
    expect(text).toMatch(/^\s+endpoint:\s+https:\/\/127\.0\.0\.1:8443$/m);
    expect(text).toMatch(/^\s+tls:\s+\/c\.pem \(TLS 1\.2\+, reloaded on SIGHUP\)$/m);
    expect(text).toMatch(/^\s+ready:\s+\/ready$/m);
    expect(endpointUrl('::', 5, 'https')).toBe('https://127.0.0.1:5');
  });
});
