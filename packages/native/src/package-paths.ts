// Where this package and its neighbours sit on disk: the @vgwrdma/native root (found by walking
// up from the running file, so it works from src/ under vitest and from the bundled dist/), the
// directory `npx @vgwrdma/native build` writes to, the repository's native-shims build, and the
// `lib/` of an installed per-platform package.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = '@vgwrdma/native';

/** The root directory of the installed @vgwrdma/native (the one holding its package.json). */
export function nativePackageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
      } catch {
        // not JSON: keep walking up
      }
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** `<package>/build`: where `npx @vgwrdma/native build` puts `<platform tag>/libvgwrdma_shims.so`. */
export function defaultSourceBuildRoot(): string | undefined {
  const root = nativePackageRoot();
  return root === undefined ? undefined : join(root, 'build');
}

/** `<package>/csrc`: the C sources shipped in the tarball (copied from native-shims at build). */
export function shippedSourcesDir(): string | undefined {
  const root = nativePackageRoot();
  return root === undefined ? undefined : join(root, 'csrc');
}

/** The repository's `native-shims/build`, when this package sits in the repository; else undefined. */
export function defaultRepoBuildRoot(): string | undefined {
  const root = nativePackageRoot();
  if (root === undefined) return undefined;
  const shims = join(root, '..', '..', 'native-shims');
  return existsSync(join(shims, 'CMakeLists.txt')) ? join(shims, 'build') : undefined;
}

/** The directory holding an installed package's library: its `lib/`, else its root. */
export function installedPackageDir(name: string): string | undefined {
  try {
    const root = dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
    return existsSync(join(root, 'lib')) ? join(root, 'lib') : root;
  } catch {
    return undefined;
  }
}
