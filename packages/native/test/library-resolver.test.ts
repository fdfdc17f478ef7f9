import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { thrownBy } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { NativeLoadError } from '../src/errors.js';
import { defaultRepoBuildRoot, libraryFileName, resolveShimLibraries } from '../src/library-resolver.js';
import { detectLibc, platformTag } from '../src/platform.js';

function dirWith(...files: string[]): string {
  const d = mkdtempSync(join(tmpdir(), 'native-resolve-'));
  for (const f of files) writeFileSync(join(d, f), '');
  return d;
}

const thrown = (fn: () => unknown): NativeLoadError => thrownBy(fn, NativeLoadError);

// No per-platform package and no `npx @vgwrdma/native build` output unless a test says so.
const none = dirWith();
const base = {
  libraries: ['a', 'b'],
  platform: 'linux',
  arch: 'x64',
  env: {},
  findPackage: () => undefined,
  sourceBuildRoot: none,
} as const;

function buildRootWith(tag: string): string {
  const root = dirWith();
  mkdirSync(join(root, tag));
  for (const f of ['liba.so', 'libb.so']) writeFileSync(join(root, tag, f), '');
  return root;
}

describe('resolveShimLibraries', () => {
  it('names platform-specific file names', () => {
    expect(libraryFileName('x', 'linux')).toBe('libx.so');
    expect(libraryFileName('x', 'darwin')).toBe('libx.dylib');
  });

  it('refuses unsupported platforms with one clear error', () => {
    const e = thrown(() => resolveShimLibraries({ ...base, platform: 'win32' }));
    expect(e.code).toBe('VGW_ERR_NATIVE_UNSUPPORTED_PLATFORM');
    expect(e.message).toContain('win32-x64');
    expect(e.message).toContain('@vgwrdma/native-shims-linux-x64 (linux-x64, glibc)');
  });

  it("takes the per-platform package, then the build command's directory, then the repo build", () => {
    const pkg = dirWith('liba.so', 'libb.so');
    const build = buildRootWith('linux-x64');
    const repo = buildRootWith('linux-x64');
    const asked: string[] = [];
    const findPackage = (name: string) => {
      asked.push(name);
      return pkg;
    };
    const all = { ...base, findPackage, sourceBuildRoot: build, repoBuildRoot: repo };
    expect(resolveShimLibraries(all)).toMatchObject({ dir: pkg, source: 'package' });
    expect(asked).toEqual(['@vgwrdma/native-shims-linux-x64']);
    expect(
      resolveShimLibraries({ ...all, arch: 'arm64', sourceBuildRoot: buildRootWith('linux-arm64') }).dir,
    ).toBe(pkg);
    expect(asked.at(-1)).toBe('@vgwrdma/native-shims-linux-arm64');
    expect(resolveShimLibraries({ ...all, findPackage: () => undefined })).toMatchObject({
      dir: join(build, 'linux-x64'),
      source: 'build',
    });
  });

  it('on musl skips the glibc package and finds a musl build of its own', () => {
    const asked: string[] = [];
    const build = buildRootWith('linux-x64-musl');
    const found = resolveShimLibraries({
      ...base,
      libc: 'musl',
      findPackage: (n) => {
        asked.push(n);
        return dirWith('liba.so', 'libb.so');
      },
      sourceBuildRoot: build,
    });
    expect(found).toMatchObject({ dir: join(build, 'linux-x64-musl'), source: 'build' });
    expect(asked).toEqual([]);
  });

  it('on musl names the platform, the packages that exist and the build command', () => {
    const e = thrown(() => resolveShimLibraries({ ...base, libc: 'musl' }));
    expect(e.code).toBe('VGW_ERR_NATIVE_LIBRARY_NOT_FOUND');
    expect(e.message).toContain('not found for linux-x64 (musl)');
    expect(e.message).toContain('No prebuilt package matches linux-x64 (musl)');
    expect(e.message).toContain(
      '@vgwrdma/native-shims-linux-x64 (linux-x64, glibc), @vgwrdma/native-shims-linux-arm64 (linux-arm64, glibc)',
    );
    expect(e.message).toContain(join(none, 'linux-x64-musl'));
    expect(e.message).toContain('run: npx @vgwrdma/native build');
    expect(e.message).not.toContain('npm run build');
  });

  it('on a CPU without a prebuilt package says so and still offers the build', () => {
    const e = thrown(() => resolveShimLibraries({ ...base, arch: 'riscv64' }));
    expect(e.code).toBe('VGW_ERR_NATIVE_LIBRARY_NOT_FOUND');
    expect(e.message).toContain('No prebuilt package matches linux-riscv64 (glibc)');
    expect(e.message).not.toContain('@vgwrdma/native-shims-linux-riscv64');
    expect(e.message).toContain('npx @vgwrdma/native build');
  });

  it("detects musl by the missing glibc runtime in Node's report", () => {
    expect(detectLibc('linux', () => ({ header: { glibcVersionRuntime: '2.36' } }))).toBe('glibc');
    expect(detectLibc('linux', () => ({ header: {} }))).toBe('musl');
    expect(detectLibc('darwin', () => ({ header: {} }))).toBe('unknown');
    expect(detectLibc()).toBe('glibc'); // this machine: Debian
    expect(platformTag({ os: 'linux', arch: 'arm64', libc: 'musl' })).toBe('linux-arm64-musl');
    expect(platformTag({ os: 'linux', arch: 'arm64', libc: 'glibc' })).toBe('linux-arm64');
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
    expect(e.message).toContain('liba.so, libb.so not found for linux-x64 (glibc)');
    expect(e.message).toContain('@vgwrdma/native-shims-linux-x64 (not installed)');
    expect(e.message).toContain(join(none, 'linux-x64'));
    expect(e.message).toContain(join(repo, 'linux-x64'));
    expect(e.message).toContain('The prebuilt package for this platform is @vgwrdma/native-shims-linux-x64');
    expect(e.message).toContain('run: npx @vgwrdma/native build');
    expect(e.message).not.toContain('npm run build');
  });

  it('finds the repository build root from the package', () => {
    expect(defaultRepoBuildRoot()).toBe(join(__dirname, '..', '..', '..', 'native-shims', 'build'));
  });
});
