// Stages libvgwrdma_shims.so into a per-platform package (packages/native-shims-linux-<arch>):
// run from that package's directory by its `build` and `prepack` scripts, it reads the arch from
// the package's `cpu` field and puts build/linux-<arch>/libvgwrdma_shims.so into its lib/: a
// symbolic link for the workspace (`build`), a copy for the tarball (`prepack --strict`).
// A library of another architecture is cross-built first (node build.mjs --arch <arch>) where
// the cross compiler exists; without it `--strict` (prepack) fails saying what to install, and a
// plain run (turbo's build) says so and leaves lib/ empty, so the workspace still builds.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const shims = fileURLToPath(new URL('.', import.meta.url));
const pkgDir = process.cwd();
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const strict = process.argv.includes('--strict');
const arch = pkg.cpu?.[0];
const CROSS_COMPILERS = { arm64: 'aarch64-linux-gnu-gcc' }; // build.mjs's cross toolchains
const LIB = 'libvgwrdma_shims.so';
const built = join(shims, 'build', `linux-${arch}`, LIB);
const out = join(pkgDir, 'lib');

function fail(message) {
  if (strict) {
    console.error(`${pkg.name}: ${message}`);
    process.exit(1);
  }
  console.log(`${pkg.name}: ${message} (skipped; prepack refuses this)`);
  process.exit(0);
}

if (arch !== process.arch) {
  if (!(arch in CROSS_COMPILERS))
    fail(`linux-${arch} cannot be built on ${process.arch} (no cross toolchain)`);
  const cc = CROSS_COMPILERS[arch];
  if (spawnSync(cc, ['--version'], { stdio: 'ignore' }).status !== 0) {
    fail(
      `cannot build linux-${arch}: the cross compiler ${cc} is not installed (Debian: gcc-aarch64-linux-gnu)`,
    );
  }
  execFileSync(process.execPath, [join(shims, 'build.mjs'), '--arch', arch], {
    cwd: shims,
    stdio: 'inherit',
  });
} else if (!existsSync(built) || strict) {
  execFileSync(process.execPath, [join(shims, 'build.mjs')], { cwd: shims, stdio: 'inherit' });
}
if (!existsSync(built)) fail(`${built} was not built`);
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
if (strict) {
  copyFileSync(built, join(out, LIB));
  console.log(`${pkg.name}: lib/${LIB} copied from ${built}`);
} else {
  // In the workspace a link, so a rebuild of native-shims is what the loader finds at once.
  symlinkSync(relative(out, built), join(out, LIB));
  console.log(`${pkg.name}: lib/${LIB} → ${built}`);
}
