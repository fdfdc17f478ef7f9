// Command-line parsing: versitygw's flag names, aliases and environment variables, precedence
// (flag > env > default), and errors that name the offending flag.
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/config.js';
import { ROOT_ENV, serveConfig, usageError } from './helpers/command-line.js';
import { POSIX_DEFAULTS, RDMA_DEFAULTS } from './helpers/config-defaults.js';

const creds = ROOT_ENV;
const serve = serveConfig;

describe('parseCommandLine', () => {
  it('applies versitygw defaults', () => {
    const config = serve(['posix', 'data']);
    expect(config.listen).toEqual({ host: '0.0.0.0', port: 7070, wildcard: true });
    expect(config.region).toBe('us-east-1');
    expect(config.readonly).toBe(false);
    expect(config.backend).toEqual({ kind: 'posix', root: '/cwd/data', ...POSIX_DEFAULTS });
    expect(config.requests).toEqual({ maxParts: 10_000, copyObjectThreshold: 5 * 1024 ** 3 });
    expect(config.admin).toBeUndefined();
    expect(config.access).toBe('ak');
    expect(config.secret).toBe('sk');
  });

  it('reads long flags, short aliases and posix flags', () => {
    const config = serve(
      [
        '-p',
        '127.0.0.1:9000',
        '-a',
        'A',
        '-s',
        'S',
        '-r',
        'eu-west-3',
        '--health',
        '/hz',
        '--readonly',
        '-q',
        '--access-log',
        'acc.log',
        'posix',
        '--sidecar',
        '/meta',
        '--dir-perms',
        '0700',
        '/srv/root',
      ],
      {},
    );
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 9000, wildcard: false });
    expect(config).toMatchObject({
      access: 'A',
      secret: 'S',
      region: 'eu-west-3',
      healthPath: '/hz',
      readonly: true,
      quiet: true,
      accessLog: '/cwd/acc.log',
    });
    expect(config.backend).toEqual({
      kind: 'posix',
      root: '/srv/root',
      sidecar: '/meta',
      ...POSIX_DEFAULTS,
      dirPerms: 0o700,
    });
  });

  it('reads the ETag mode and part size from flags and VGW_ETAG_MODE / VGW_ETAG_PART_SIZE', () => {
    const parts = serve(['posix', '--etag-mode', 'parts', 'r']);
    expect(parts.backend).toMatchObject({ etagMode: { kind: 'parts', partSize: 8 * 1024 * 1024 } });
    const sized = serve(['posix', '--etag-mode', 'parts', '--etag-part-size', '16MiB', 'r']);
    expect(sized.backend).toMatchObject({ etagMode: { kind: 'parts', partSize: 16 * 1024 * 1024 } });
    const fromEnv = serve(['posix', 'r'], { ...creds, VGW_ETAG_MODE: 'parts', VGW_ETAG_PART_SIZE: '6MiB' });
    expect(fromEnv.backend).toMatchObject({ etagMode: { kind: 'parts', partSize: 6 * 1024 * 1024 } });
    expect(usageError(['posix', '--etag-mode', 'sha1', 'r'])).toMatch(/--etag-mode.*'md5' or 'parts'/s);
    expect(usageError(['posix', '--etag-part-size', '1MiB', 'r'])).toMatch(/--etag-part-size.*at least/s);
    expect(usageError(['posix', '--etag-part-size', '6GiB', 'r'])).toMatch(/--etag-part-size.*at most/s);
  });

  it('falls back to versitygw environment variables, flags winning over them', () => {
    const env = {
      ROOT_ACCESS_KEY: 'envA',
      ROOT_SECRET_KEY: 'envS',
      VGW_PORT: ':8080',
      VGW_REGION: 'ap-south-1',
      VGW_READ_ONLY: 'true',
      VGW_QUIET: '1',
      VGW_DEBUG: 'false',
      VGW_HEALTH: '/up',
      VGW_ACCESS_LOG: '/l',
      VGW_META_NONE: 'yes',
      VGW_DIR_PERMS: '0750',
    };
    const config = serve(['posix', 'r'], env);
    expect(config).toMatchObject({
      access: 'envA',
      secret: 'envS',
      region: 'ap-south-1',
      readonly: true,
      quiet: true,
      debug: false,
      healthPath: '/up',
      accessLog: '/l',
    });
    expect(config.listen.port).toBe(8080);
    expect(config.backend).toMatchObject({ nometa: true, dirPerms: 0o750 });
    expect(serve(['--port', ':9', 'posix', 'r'], env).listen.port).toBe(9);
    // ROOT_ACCESS_KEY_ID is preferred to ROOT_ACCESS_KEY, as in versitygw.
    expect(serve(['posix', 'r'], { ...env, ROOT_ACCESS_KEY_ID: 'first' }).access).toBe('first');
  });

  it('reads versitygw multi-letter aliases (--vd, --noacl) and their environment variables', () => {
    expect(serve(['--vd', 's3.example.com', '--noacl', 'posix', 'r'])).toMatchObject({
      virtualDomain: 's3.example.com',
      disableAcl: true,
    });
    expect(serve(['--virtual-domain', 'a.b', 'posix', 'r']).virtualDomain).toBe('a.b');
    expect(
      serve(['posix', 'r'], { ...creds, VGW_VIRTUAL_DOMAIN: 'e.f', VGW_DISABLE_ACL: 'true' }),
    ).toMatchObject({
      virtualDomain: 'e.f',
      disableAcl: true,
    });
    expect(serve(['posix', 'r']).disableAcl).toBe(false);
    expect(usageError(['--vd', 'bad domain!', 'posix', 'r'])).toMatch(/--virtual-domain \(--vd\)/);
  });

  it('turns --rdma-ip and the pool flags into an RDMA config, absent without --rdma-ip', () => {
    expect(serve(['posix', 'r']).rdma).toBeUndefined();
    expect(
      serve(['--rdma-ip', '10.0.0.5', '--pool-buf-count', '8', '--pool-buf-size', '1048576', 'posix', 'r'])
        .rdma,
    ).toEqual({ ip: '10.0.0.5', poolBufCount: 8, poolBufSize: 1 << 20, ...RDMA_DEFAULTS });
    expect(
      serve(['posix', 'r'], { ...creds, VGW_RDMA_IP: '127.0.0.1', VGW_RDMA_TRANSPORT: 'cuobj' }).rdma,
    ).toMatchObject({
      ip: '127.0.0.1',
      transport: 'cuobj',
    });
    expect(serve(['--debug', '--rdma-ip', '10.0.0.5', 'posix', 'r']).rdma).toMatchObject({
      vendorDebug: true,
    });
    expect(usageError(['--rdma-ip', '1.2.3.4', '--rdma-transport', 'ib', 'posix', 'r'])).toMatch(
      /--rdma-transport/,
    );
    expect(usageError(['--rdma-ip', '1.2.3.4', '--pool-buf-count', '0', 'posix', 'r'])).toMatch(
      /--pool-buf-count/,
    );
  });

  it('parses IPv6 listen addresses and port 0', () => {
    expect(serve(['-p', '[::1]:0', 'posix', 'r']).listen).toEqual({ host: '::1', port: 0, wildcard: false });
  });

  it('answers --help, posix --help and --version', () => {
    const help = parseCommandLine(['--help'], {});
    expect(help.kind).toBe('help');
    if (help.kind === 'help') {
      expect(help.text).toContain('--port');
      expect(help.text).toContain('VGW_PORT');
      expect(help.text).toContain('ROOT_SECRET_ACCESS_KEY');
    }
    const posixHelp = parseCommandLine(['posix', '-h'], {});
    expect(posixHelp.kind).toBe('help');
    if (posixHelp.kind === 'help') expect(posixHelp.text).toContain('--sidecar DIR');
    const version = parseCommandLine(['--version'], {});
    expect(version.kind === 'version' && /^vgwrdma \d+\.\d+\.\d+/.test(version.text)).toBe(true);
  });

  it('names the flag in validation errors', () => {
    expect(usageError(['--port', 'nonsense', 'posix', 'r'])).toMatch(/--port \(-p\).*"nonsense"/s);
    expect(usageError(['--port', ':70000', 'posix', 'r'])).toMatch(/--port.*out of range/s);
    expect(usageError(['posix', '--dir-perms', '999', 'r'])).toMatch(/--dir-perms.*octal/s);
    expect(usageError(['--health', 'nope', 'posix', 'r'])).toMatch(/--health.*starting with '\/'/s);
    expect(usageError(['posix', 'r'], { ...creds, VGW_READ_ONLY: 'maybe' })).toMatch(
      /--readonly from VGW_READ_ONLY/,
    );
    expect(usageError(['posix', 'r'], { ...creds, VGW_PORT: 'x' })).toMatch(/--port \(-p\) from VGW_PORT/);
  });

  it('rejects unknown flags, missing values and a missing root', () => {
    expect(usageError(['--bogus', 'posix', 'r'])).toBe('unknown flag --bogus');
    expect(usageError(['posix', '--bogus', 'r'])).toBe('unknown flag --bogus');
    expect(usageError(['posix', 'r', '--port', ':1'])).toBe('unknown flag --port');
    expect(usageError(['posix', '--sidecar'])).toMatch(/--sidecar/);
    expect(usageError(['posix'])).toMatch(/no directory provided/);
    expect(usageError([])).toMatch(/no backend/);
    expect(usageError(['gcs', 'x'])).toMatch(/unknown backend "gcs" \(available: posix, s3, azure\)/);
    expect(usageError(['posix', 'a', 'b'])).toMatch(/unexpected argument/);
  });

  it('requires the root credentials', () => {
    expect(usageError(['posix', 'r'], {})).toMatch(/missing --access and --secret/);
    expect(usageError(['-a', 'x', 'posix', 'r'], {})).toMatch(/missing --secret/);
    expect(usageError(['-s', '', '-a', 'x', 'posix', 'r'], {})).toMatch(/--secret.*must not be empty/s);
  });

  it('refuses --nometa with --sidecar', () => {
    expect(usageError(['posix', '--nometa', '--sidecar', '/m', 'r'])).toMatch(/both --nometa and --sidecar/);
  });
});
