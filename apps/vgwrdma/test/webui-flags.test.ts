// --webui and its companions: off by default; the address forms of --port; the console's own TLS
// pair, else the gateway's; --webui-origin and --webui-s3-url parsed and checked; each companion
// without --webui, or half a TLS pair, is a usage error. The banner names the console's URL.
import { describe, expect, it } from 'vitest';
import { formatBanner } from '../src/banner.js';
import { ROOT_ENV, serveConfig, usageError } from './helpers/command-line.js';

describe('--webui flags', () => {
  it('is off unless asked for', () => {
    expect(serveConfig(['posix', 'data']).webui).toBeUndefined();
  });

  it('takes the --port address forms, from the flag or VGW_WEBUI', () => {
    expect(serveConfig(['--webui', '127.0.0.1:7071', 'posix', 'data']).webui).toEqual({
      listen: { host: '127.0.0.1', port: 7071, wildcard: false },
      origins: [],
    });
    expect(serveConfig(['posix', 'data'], { ...ROOT_ENV, VGW_WEBUI: ':7071' }).webui?.listen).toEqual({
      host: '0.0.0.0',
      port: 7071,
      wildcard: true,
    });
    expect(serveConfig(['--webui', '/run/webui.sock', 'posix', 'data']).webui?.listen.socketPath).toBe(
      '/run/webui.sock',
    );
    expect(usageError(['--webui', 'nope', 'posix', 'data'])).toMatch(/--webui/);
  });

  it("uses its own TLS pair, else the gateway's", () => {
    const own = serveConfig([
      '--webui',
      ':1',
      '--webui-cert',
      'w.pem',
      '--webui-cert-key',
      'w.key',
      '--cert',
      'g.pem',
      '--key',
      'g.key',
      'posix',
      'data',
    ]);
    expect(own.webui?.tls).toEqual({ certFile: '/cwd/w.pem', keyFile: '/cwd/w.key' });
    const inherited = serveConfig(['--webui', ':1', '--cert', 'g.pem', '--key', 'g.key', 'posix', 'data']);
    expect(inherited.webui?.tls).toEqual({ certFile: '/cwd/g.pem', keyFile: '/cwd/g.key' });
    expect(usageError(['--webui', ':1', '--webui-cert', 'w.pem', 'posix', 'data'])).toMatch(
      /--webui-cert needs --webui-cert-key too/,
    );
  });

  it('parses --webui-origin and --webui-s3-url, and wants --webui for them', () => {
    const config = serveConfig([
      '--webui',
      ':1',
      '--webui-origin',
      'https://console.example.com/, http://10.0.0.5:7071',
      '--webui-s3-url',
      'https://s3.example.com/',
      'posix',
      'data',
    ]);
    expect(config.webui?.origins).toEqual(['https://console.example.com', 'http://10.0.0.5:7071']);
    expect(config.webui?.s3Url).toBe('https://s3.example.com');
    expect(usageError(['--webui', ':1', '--webui-origin', 'https://*.example.com', 'posix', 'data'])).toMatch(
      /no wildcard/,
    );
    expect(
      usageError(['--webui', ':1', '--webui-s3-url', 'https://s3.example.com/x', 'posix', 'data']),
    ).toMatch(/without a path/);
    expect(usageError(['--webui-origin', 'https://console.example.com', 'posix', 'data'])).toMatch(
      /need --webui/,
    );
  });

  it('puts the console URL in the banner', () => {
    const config = serveConfig(['--webui', '127.0.0.1:7071', 'posix', 'data']);
    const banner = formatBanner({ config, host: '127.0.0.1', port: 7070, webui: 'http://127.0.0.1:7071' });
    expect(banner).toMatch(/^ {2}webui: {6}http:\/\/127\.0\.0\.1:7071\/ \(web console\)$/m);
  });
});
