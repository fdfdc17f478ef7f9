// --versioning-dir / VGW_VERSIONING_DIR: parsed like versitygw's flag, checked at start-up
// (must exist, outside the root), and handed to the posix backend so bucket versioning works.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartupError } from '@vgwrdma/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/config.js';
import { openBackend } from '../src/open-backend.js';

const env = { ROOT_ACCESS_KEY_ID: 'ak', ROOT_SECRET_ACCESS_KEY: 'sk' };
const ctx = {
  account: { access: 'ak', role: 'admin' as const },
  requestId: 'r',
  signal: new AbortController().signal,
};
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function config(argv: string[], extraEnv: Record<string, string> = {}) {
  const command = parseCommandLine(argv, { ...env, ...extraEnv }, '/cwd');
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`);
  return command.config;
}

function versioningDir(argv: string[], extraEnv: Record<string, string> = {}): string | undefined {
  const { backend } = config(argv, extraEnv);
  if (backend.kind !== 'posix') throw new Error('expected the posix backend');
  return backend.versioningDir;
}

describe('--versioning-dir', () => {
  it('takes the flag or VGW_VERSIONING_DIR, resolved against the working directory', () => {
    expect(versioningDir(['posix', '--versioning-dir', 'vers', 'data'])).toBe('/cwd/vers');
    expect(versioningDir(['posix', 'data'], { VGW_VERSIONING_DIR: '/v' })).toBe('/v');
    expect(versioningDir(['posix', 'data'])).toBeUndefined();
  });

  it('opens a backend with versioning; a missing directory is a start-up error', async () => {
    dir = await mkdtemp(join(tmpdir(), 'vgw-vdir-'));
    await mkdir(join(dir, 'root'));
    const missing = config(['posix', '--versioning-dir', join(dir, 'nope'), join(dir, 'root')]);
    await expect(openBackend(missing)).rejects.toBeInstanceOf(StartupError);
    await expect(openBackend(missing)).rejects.toMatchObject({ code: 'VGW_ERR_STARTUP', exitCode: 1 });
    await mkdir(join(dir, 'versions'));
    const backend = await openBackend(
      config(['posix', '--versioning-dir', join(dir, 'versions'), join(dir, 'root')]),
    );
    await backend.createBucket(ctx, { bucket: 'vbucket', owner: 'ak', acl: { Owner: 'ak', Grantees: [] } });
    await backend.putBucketVersioning(ctx, 'vbucket', 'Enabled');
    expect(await backend.getBucketVersioning(ctx, 'vbucket')).toBe('Enabled');
    await backend.shutdown();
  });
});
