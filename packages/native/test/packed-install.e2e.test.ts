// @vgwrdma/native as a user gets it: packed tarballs installed with npm into a directory outside
// the workspace, no environment variable. With the per-platform package installed the loader finds
// its lib/; without it, loading fails with the message naming the build command, and running that
// command (`npx @vgwrdma/native build`) compiles the shipped C sources where the loader then
// finds them.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installTarballs, missingDist, packKoffi, packWorkspace, userEnv } from './helpers/packed.js';

const LOAD = `import { loadNativeLibrary } from '@vgwrdma/native';
try {
  const lib = loadNativeLibrary();
  console.log(JSON.stringify({ path: lib.path, source: lib.source, abi: lib.abi }));
} catch (e) {
  console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message }));
}
`;

function load(app: string): Record<string, string> {
  writeFileSync(join(app, 'load.mjs'), LOAD);
  const out = execFileSync(process.execPath, ['load.mjs'], { cwd: app, encoding: 'utf8', env: userEnv() });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Record<string, string>;
}

const tag = `${process.platform}-${process.arch}`;
// Nothing in the message may only make sense inside the repository.
const REPO_MARK = 'npm run build';
const missing = missingDist(['errors', 'native']);

describe.skipIf(missing.length > 0)(
  `installed from tarballs${missing.length ? ` (build first: ${missing})` : ''}`,
  () => {
    const tgz: Record<string, string> = {};
    let koffi: string[] = [];

    beforeAll(() => {
      const dest = mkdtempSync(join(tmpdir(), 'vgw-native-tgz-'));
      tgz.errors = packWorkspace('packages/errors', dest);
      tgz.native = packWorkspace('packages/native', dest);
      tgz.shims = packWorkspace(`packages/native-shims-${tag}`, dest);
      koffi = packKoffi(dest);
    }, 180_000);

    it('ships the C sources and no test in @vgwrdma/native, only lib/ in the platform package', () => {
      const list = (f: string) => execFileSync('tar', ['tzf', f], { encoding: 'utf8' }).split('\n');
      const native = list(tgz.native as string);
      expect(native).toContain('package/csrc/CMakeLists.txt');
      expect(native).toContain('package/csrc/src/softnic/agent.c');
      expect(native).toContain('package/bin/vgwrdma-native.mjs');
      expect(native.filter((f) => /\/test\/|\.test\.|\/tools\//.test(f))).toEqual([]);
      expect(statSync(tgz.native as string).size).toBeLessThan(400 * 1024);
      expect(
        list(tgz.shims as string)
          .filter(Boolean)
          .sort(),
      ).toEqual([
        'package/LICENSE',
        'package/README.md',
        'package/lib/libvgwrdma_shims.so',
        'package/package.json',
      ]);
    });

    it('finds lib/ of the installed per-platform package with no environment variable', () => {
      const app = installTarballs([
        ...koffi,
        tgz.errors as string,
        tgz.shims as string,
        tgz.native as string,
      ]);
      expect(load(app)).toEqual({
        path: join(app, 'node_modules', `@vgwrdma/native-shims-${tag}`, 'lib', 'libvgwrdma_shims.so'),
        source: 'package',
        abi: expect.stringMatching(/^1\.\d+$/),
      });
    }, 120_000);

    it('without it, names the build command; that command builds what the loader then loads', () => {
      const app = installTarballs([...koffi, tgz.errors as string, tgz.native as string]);
      const refused = load(app);
      expect(refused).toMatchObject({ name: 'NativeLoadError', code: 'VGW_ERR_NATIVE_LIBRARY_NOT_FOUND' });
      expect(refused.message).toContain(`not found for ${tag} (glibc)`);
      expect(refused.message).toContain(`@vgwrdma/native-shims-${tag} (not installed)`);
      expect(refused.message).toContain('run: npx @vgwrdma/native build');
      expect(refused.message).not.toContain(REPO_MARK);

      const built = spawnSync('npx', ['@vgwrdma/native', 'build'], {
        cwd: app,
        encoding: 'utf8',
        env: userEnv(),
      });
      const out = join(app, 'node_modules', '@vgwrdma', 'native', 'build', tag);
      expect(built.status, built.stderr).toBe(0);
      expect(built.stdout).toContain(`output ${out}`);
      expect(built.stdout).toContain(`built ${join(out, 'libvgwrdma_shims.so')}`);
      expect(load(app)).toEqual({
        path: join(out, 'libvgwrdma_shims.so'),
        source: 'build',
        abi: expect.stringMatching(/^1\.\d+$/),
      });

      const bad = spawnSync('npx', ['@vgwrdma/native', 'build', '--jobs', 'x'], {
        cwd: app,
        encoding: 'utf8',
        env: userEnv(),
      });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('--jobs must be a positive integer, got x');
    }, 300_000);
  },
);
