// One koffi per process: @vgwrdma/native is the only package that depends on koffi or imports it
// (the others bind through its `koffi` export), and a second @vgwrdma/native that brings another
// koffi copy refuses to load, naming both — performed with two real copies of the built package,
// each with its own koffi, in one node process. Positive controls: two copies of the package that
// share one koffi load, and an application's own koffi (another copy) is no concern.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimKoffi, KOFFI_CLAIM, koffi, koffiClaim, libc, NativeLoadError } from '../src/index.js';
import { missingDist, REPO, userEnv } from './helpers/packed.js';

describe('claimKoffi', () => {
  it('refuses a claim for another koffi copy, naming both', () => {
    const registry: Record<symbol, unknown> = {};
    const a = { koffi: '/x/node_modules/koffi', native: '/x/node_modules/@vgwrdma/native' };
    const b = { koffi: '/y/node_modules/koffi', native: '/y/node_modules/@vgwrdma/native' };
    expect(claimKoffi(registry, a)).toBe(a);
    expect(claimKoffi(registry, { ...a, native: '/z' })).toBe(a); // same koffi: agreed
    let err: unknown;
    try {
      claimKoffi(registry, b);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NativeLoadError);
    expect((err as NativeLoadError).code).toBe('VGW_ERR_NATIVE_DUPLICATE_KOFFI');
    for (const path of [a.koffi, a.native, b.koffi, b.native]) expect((err as Error).message).toContain(path);
  });

  it('is made when the package loads, and a struct declared on the export binds on libc()', () => {
    expect((globalThis as unknown as Record<symbol, unknown>)[KOFFI_CLAIM]).toBe(koffiClaim);
    expect(koffiClaim.koffi).toMatch(/[/]koffi$/);
    koffi.struct('vgw_one_koffi_timespec', { sec: 'int64_t', nsec: 'long' });
    const clock = libc().func('int clock_gettime(int clock, _Out_ vgw_one_koffi_timespec *ts)');
    const ts: { sec?: number } = {};
    expect(clock(0, ts)).toBe(0);
    expect(Number(ts.sec)).toBeGreaterThan(0);
  });
});

/**
 * Source files of the workspace (src and test of every package and app), relative paths. Test
 * fixtures are left out: they stand for users' applications, one of which has a koffi of its own.
 */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'fixtures']);

function sources(): string[] {
  const out: string[] = [];
  for (const group of ['packages', 'apps']) {
    for (const pkg of readdirSync(join(REPO, group))) {
      for (const sub of ['src', 'test']) {
        const walk = (dir: string): void => {
          let entries: import('node:fs').Dirent[];
          try {
            entries = readdirSync(dir, { withFileTypes: true });
          } catch {
            return;
          }
          for (const e of entries) {
            const p = join(dir, e.name);
            if (e.isDirectory() && !SKIPPED_DIRS.has(e.name)) walk(p);
            else if (/\.(ts|mts|js|mjs|cjs)$/.test(e.name)) out.push(relative(REPO, p));
          }
        };
        walk(join(REPO, group, pkg, sub));
      }
    }
  }
  return out;
}

describe('the workspace', () => {
  it('imports koffi only in packages/native/src/koffi.ts', () => {
    const importers = sources().filter((f) =>
      /(from\s+['"]koffi['"]|import\(['"]koffi['"]\)|require\(['"]koffi['"]\))/.test(
        readFileSync(join(REPO, f), 'utf8'),
      ),
    );
    expect(importers).toEqual(['packages/native/src/koffi.ts']);
  });

  it("declares libc's functions only in @vgwrdma/native; only rdma-ffi (the shims' bindings) uses its koffi", () => {
    const users = (name: string) =>
      sources()
        .filter((f) => !f.startsWith('packages/native/'))
        .filter((f) =>
          new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*['"]@vgwrdma/native['"]`).test(
            readFileSync(join(REPO, f), 'utf8'),
          ),
        );
    expect(users('libc')).toEqual([]);
    expect(new Set(users('koffi').map((f) => f.split('/').slice(0, 2).join('/')))).toEqual(
      new Set(['packages/rdma-ffi']),
    );
  });

  it('lists koffi as a dependency only in @vgwrdma/native', () => {
    const holders: string[] = [];
    for (const group of ['packages', 'apps']) {
      for (const pkg of readdirSync(join(REPO, group))) {
        let manifest: Record<string, Record<string, string> | undefined>;
        try {
          manifest = JSON.parse(readFileSync(join(REPO, group, pkg, 'package.json'), 'utf8'));
        } catch {
          continue;
        }
        for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
          if (manifest[field]?.koffi !== undefined) holders.push(`${group}/${pkg} ${field}`);
        }
      }
    }
    expect(holders).toEqual(['packages/native dependencies']);
  });
});

const missing = missingDist(['errors', 'native']);

/** A node_modules holding copies of the built @vgwrdma/native and errors, and `koffi` (copied, or a link). */
function layout(root: string, koffiFrom?: string): string {
  const nm = join(root, 'node_modules');
  const store = (name: string) => realpathSync(join(REPO, 'node_modules/.pnpm', name, 'node_modules'));
  for (const pkg of ['errors', 'native']) {
    const to = join(nm, '@vgwrdma', pkg);
    mkdirSync(to, { recursive: true });
    cpSync(join(REPO, 'packages', pkg, 'package.json'), join(to, 'package.json'));
    cpSync(join(REPO, 'packages', pkg, 'dist'), join(to, 'dist'), { recursive: true });
  }
  if (koffiFrom) symlinkSync(koffiFrom, join(nm, 'koffi'));
  else {
    cpSync(join(store('koffi@3.3.4'), 'koffi'), join(nm, 'koffi'), { recursive: true, dereference: true });
    const bin = `@koromix/koffi-linux-${process.arch}`;
    cpSync(join(store(`@koromix+koffi-linux-${process.arch}@3.3.4`), bin), join(nm, bin), {
      recursive: true,
      dereference: true,
    });
  }
  return join(nm, '@vgwrdma/native/dist/index.js');
}

/** Runs `code` (an ES module) with node as a user would; answers its last stdout line, parsed. */
function run(dir: string, code: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: dir,
    encoding: 'utf8',
    env: userEnv(),
  });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}

const TRY = (a: string, b: string) => `
const a = await import(${JSON.stringify(a)});
try {
  const b = await import(${JSON.stringify(b)});
  console.log(JSON.stringify({ loaded: true, same: a.koffiClaim === b.koffiClaim, pid: b.libc().func('int getpid(void)')() }));
} catch (e) {
  console.log(JSON.stringify({ loaded: false, code: e.code, message: e.message }));
}`;

describe.skipIf(missing.length > 0)(
  `two copies of the built package${missing.length ? ` (build first: ${missing})` : ''}`,
  () => {
    it('with two koffi copies: the second refuses to load, naming both koffi directories', () => {
      const dir = mkdtempSync(join(tmpdir(), 'vgw-two-koffi-'));
      const a = layout(join(dir, 'a'));
      const b = layout(join(dir, 'b'));
      const r = run(dir, TRY(a, b));
      expect(r.loaded).toBe(false);
      expect(r.code).toBe('VGW_ERR_NATIVE_DUPLICATE_KOFFI');
      expect(r.message).toContain(join(dir, 'a/node_modules/koffi'));
      expect(r.message).toContain(join(dir, 'b/node_modules/koffi'));
    });

    it('sharing one koffi: both load and agree; an application koffi of its own is no concern', () => {
      const dir = mkdtempSync(join(tmpdir(), 'vgw-one-koffi-'));
      const a = layout(join(dir, 'a'));
      const b = layout(join(dir, 'b'), join(dir, 'a/node_modules/koffi'));
      const r = run(dir, TRY(a, b));
      expect(r).toMatchObject({ loaded: true, same: true });
      // The application loads its own koffi copy first and uses it; then the package loads its own.
      layout(join(dir, 'app')); // for its koffi copy
      const appKoffi = join(dir, 'app/node_modules/koffi/index.js');
      const c = run(
        dir,
        `const k = (await import(${JSON.stringify(appKoffi)})).default;
const mine = k.load('libc.so.6').func('int getpid(void)')();
const n = await import(${JSON.stringify(a)});
console.log(JSON.stringify({ mine, theirs: n.libc().func('int getpid(void)')() }));`,
      );
      expect(c.mine).toBeTypeOf('number');
      expect(c.mine).toBe(c.theirs);
    });
  },
);
