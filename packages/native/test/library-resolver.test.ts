import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NativeLoadError } from '../src/errors.js';
import { defaultRepoBuildRoot, libraryFileName, resolveShimLibraries } from '../src/library-resolver.js';

function dirWith(...files: string[]): string {
  const d = mkdtempSync(join(tmpdir(), 'native-resolve-'));
  for (const f of files) writeFileSync(join(d, f), '');
  return d;
}

function thrown(fn: () => unknown): NativeLoadError {
  try {
    fn();
  } catch (e) {
    if (e instanceof NativeLoadError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

const base = { libraries: ['a', 'b'], platform: 'linux', arch: 'x64', env: {} } as const;

describe('resolveShimLibraries', () => {
  it('names platform-specific file names', () => {
    expect(libraryFileName('x', 'linux')).toBe('libx.so');
    expect(libraryFileName('x', 'darwin')).toBe('libx.dylib');
  });

  it('refuses unsupported platforms with one clear error', () => {
    const e = thrown(() => resolveShimLibraries({ ...base, platform: 'win32' }));
    expect(e.code).toBe('VGW_ERR_NATIVE_UNSUPPORTED_PLATFORM');
    expect(e.message).toContain('win32-x64');
  });

  it('prefers the explicit option over the env var, and the env var over the repo build', () => {
    const opt = dirWith('liba.so', 'libb.so');
    const env = dirWith('liba.so', 'libb.so');
    const repo = dirWith();
    mkdirSync(join(repo, 'linux-x64'));
    for (const f of ['liba.so', 'libb.so']) writeFileSync(join(repo, 'linux-x64', f), '');
    const both = { ...base, env: { VGWRDMA_SHIM_DIR: env }, repoBuildRoot: repo };
    expect(resolveShimLibraries({ ...both, shimDir: opt })).toMatchObject({ dir: opt, source: 'option' });
    const fromEnv = resolveShimLibraries(both);
    expect(fromEnv).toMatchObject({ dir: env, source: 'env' });
    expect(fromEnv.libraries).toEqual({ a: join(env, 'liba.so'), b: join(env, 'libb.so') });
    expect(resolveShimLibraries({ ...base, repoBuildRoot: repo })).toMatchObject({
      dir: join(repo, 'linux-x64'),
      source: 'repo',
    });
  });

  it('never falls back when an explicit directory lacks a library', () => {
    const partial = dirWith('liba.so');
    const e = thrown(() => resolveShimLibraries({ ...base, env: { VGWRDMA_SHIM_DIR: partial } }));
    expect(e.code).toBe('VGW_ERR_NATIVE_LIBRARY_NOT_FOUND');
    expect(e.message).toContain('libb.so');
    expect(e.message).toContain(`VGWRDMA_SHIM_DIR=${partial}`);
    expect(e.message).not.toContain('liba.so');
  });

  it('says where it looked and how to fix it when nothing is found', () => {
    const repo = dirWith();
    const e = thrown(() => resolveShimLibraries({ ...base, repoBuildRoot: repo }));
    expect(e.code).toBe('VGW_ERR_NATIVE_LIBRARY_NOT_FOUND');
    expect(e.message).toContain('liba.so, libb.so');
    expect(e.message).toContain('@vgwrdma/native-shims-linux-x64 (not installed)');
    expect(e.message).toContain(join(repo, 'linux-x64'));
    expect(e.message).toContain('npm run build');
  });

  it('finds the repository build root from the package', () => {
    expect(defaultRepoBuildRoot()).toBe(join(__dirname, '..', '..', '..', 'native-shims', 'build'));
  });
});
