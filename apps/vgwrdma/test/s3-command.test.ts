// The `s3` subcommand's command line: versitygw's s3 flag names and VGW_S3_* variables, the
// upstream keys kept apart from the gateway's root keys, errors that name the problem, the help
// text and the banner rows.

import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/config.js';
import { backendCommand } from './helpers/backend-command.js';
import { ROOT_ENV } from './helpers/command-line.js';

const s3 = backendCommand('s3');

describe('vgwrdma s3', () => {
  it('reads every s3 flag; --access/--secret after `s3` are the upstream keys', () => {
    const { config, backend } = s3.afterRootFlags([
      '--endpoint',
      'https://rgw.example:7480',
      '--region',
      'eu-west-3',
      '-a',
      'up-a',
      '-s',
      'up-s',
      '--meta-bucket',
      'vgw-meta',
      '--use-path-style',
      '--ssl-skip-verify',
      '--disable-checksum',
      '--upload-part-size',
      '8MiB',
      '--spool-memory',
      '256KiB',
      '--spool-dir',
      '/var/spool/vgw',
    ]);
    expect(config.region).toBe('us-east-1'); // the gateway's own region is a global flag
    expect(backend.options).toEqual({
      endpoint: 'https://rgw.example:7480',
      region: 'eu-west-3',
      access: 'up-a',
      secret: 'up-s',
      metaBucket: 'vgw-meta',
      usePathStyle: true,
      sslSkipVerify: true,
      disableChecksum: true,
      anonymous: false,
      uploadPartSize: 8 * 1024 ** 2,
      spoolMemory: 256 * 1024,
      spoolDir: '/var/spool/vgw',
    });
  });

  it("falls back on versitygw's VGW_S3_* variables, and on the default chain without keys", () => {
    const { backend } = s3.config(['s3'], {
      ...ROOT_ENV,
      VGW_S3_ENDPOINT: 'http://minio:9000',
      VGW_S3_META_BUCKET: 'meta',
      VGW_S3_USE_PATH_STYLE: 'true',
      VGW_S3_ANONYMOUS_CREDENTIALS: '1',
    });
    expect(backend.options).toEqual({
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      metaBucket: 'meta',
      usePathStyle: true,
      anonymous: true,
      sslSkipVerify: false,
      disableChecksum: false,
      uploadPartSize: 16 * 1024 ** 2,
      spoolMemory: 1024 ** 2,
    });
    expect(s3.config(['s3']).backend.options.access).toBeUndefined();
    expect(s3.config(['s3', '--anonymous']).backend.options.anonymous).toBe(true);
  });

  it('refuses half a key pair, a bad endpoint, positionals and unknown flags', () => {
    expect(s3.refusal(['s3', '--access', 'only'])).toMatch(/both --access and --secret/);
    expect(s3.refusal(['s3', '--endpoint', 'ftp://x'])).toMatch(/--endpoint/);
    expect(s3.refusal(['s3', 'extra'])).toMatch(/unexpected argument/);
    // S3 parts are 5 MiB..5 GiB.
    expect(s3.refusal(['s3', '--upload-part-size', '1MiB'])).toMatch(/--upload-part-size/);
    expect(s3.refusal(['s3', '--upload-part-size', '6GiB'])).toMatch(/--upload-part-size[\s\S]*at most/);
    expect(s3.refusal(['s3', '--spool-memory', 'lots'])).toMatch(/--spool-memory/);
    expect(s3.refusal(['s3', '--sidecar', '/x'])).toMatch(/unknown flag --sidecar/);
    expect(s3.refusal(['s3'], {})).toMatch(/root user access and secret key must be provided/);
  });

  it('prints its help from the flag table', () => {
    const command = parseCommandLine(['s3', '--help'], {}, '/cwd');
    expect(command.kind).toBe('help');
    const text = command.kind === 'help' ? command.text : '';
    for (const flag of [
      '--endpoint',
      '--meta-bucket',
      '--anonymous-credentials',
      '--use-path-style',
      '--ssl-skip-verify',
      '--disable-checksum',
      '--upload-part-size',
      '--spool-memory',
      '--spool-dir',
    ]) {
      expect(text).toContain(flag);
    }
    const global = parseCommandLine(['--help'], {}, '/cwd');
    expect(global.kind === 'help' ? global.text : '').toMatch(/^\s+s3\s+proxy to an existing S3 store/m);
  });

  it('shows the upstream in the banner, never its secret', () => {
    const banner = s3.banner([
      's3',
      '--endpoint',
      'http://up:1',
      '-a',
      'up-a',
      '-s',
      'up-secret',
      '--use-path-style',
    ]);
    expect(banner).toMatch(/^\s*backend:\s+s3 \(key up-a, path-style\)$/m);
    expect(banner).toMatch(/^\s*upstream:\s+http:\/\/up:1 \(us-east-1\)$/m);
    expect(banner).toMatch(/^\s*meta bucket:\s*none/m);
    expect(banner).not.toContain('up-secret');
  });
});
