// Finds the directory holding the native shim libraries, in this order:
//   1. an explicit `shimDir` option,  2. the VGWRDMA_SHIM_DIR environment variable,
//   3. the per-platform package `@vgwrdma/native-shims-<platform>-<arch>` (its `lib/` or root;
//      glibc only),
//   4. this package's own build `<@vgwrdma/native>/build/<tag>/` (`npx @vgwrdma/native build`),
//   5. the repository build `native-shims/build/<tag>/` (only inside the repository).
// An explicit choice (1 or 2) that lacks a library is an error: silently falling back to another
// build would test the wrong binary. Every failure is one NativeLoadError naming the platform,
// where it looked, the prebuilt packages that exist and the one command that builds from source.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NativeLoadError } from './errors.js';
import { defaultRepoBuildRoot, defaultSourceBuildRoot, installedPackageDir } from './package-paths.js';
import {
  BUILD_COMMAND,
  currentPlatform,
  describePlatform,
  type Libc,
  listPrebuilt,
  type Platform,
  platformTag,
  prebuiltPackage,
} from './platform.js';

export { defaultRepoBuildRoot } from './package-paths.js';

/** Operating systems the shims build on (softnic needs Linux's process_vm_readv/writev). */
export const SUPPORTED_OS: readonly string[] = ['linux'];

/** Environment variable naming a directory with the shim libraries. */
export const SHIM_DIR_ENV = 'VGWRDMA_SHIM_DIR';

/** Where the library was found: the list at the top of this file. */
export type ShimSource = 'option' | 'env' | 'package' | 'build' | 'repo';

export interface ShimLocation {
  readonly dir: string;
  readonly source: ShimSource;
  /** Absolute path of each requested library, by its base name. */
  readonly libraries: Readonly<Record<string, string>>;
}

export interface ResolveShimOptions {
  /** Base names of the libraries needed, e.g. ['vgwrdma_server'] → libvgwrdma_server.so. */
  readonly libraries: readonly string[];
  readonly shimDir?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly platform?: string;
  readonly arch?: string;
  readonly libc?: Libc;
  /** Overrides where an installed per-platform package is looked up (tests). */
  readonly findPackage?: (name: string) => string | undefined;
  /** Overrides `<@vgwrdma/native>/build` (tests). */
  readonly sourceBuildRoot?: string;
  /** Overrides the in-repo build root (tests). */
  readonly repoBuildRoot?: string;
}

/** `lib<name>.so` (Linux) / `lib<name>.dylib` (macOS). */
export function libraryFileName(name: string, platform: string = process.platform): string {
  return platform === 'darwin' ? `lib${name}.dylib` : `lib${name}.so`;
}

function librariesIn(dir: string, names: readonly string[], platform: string) {
  const found: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of names) {
    const path = join(dir, libraryFileName(name, platform));
    if (existsSync(path)) found[name] = path;
    else missing.push(libraryFileName(name, platform));
  }
  return { found, missing };
}

function platformOf(options: ResolveShimOptions): Platform {
  const here = currentPlatform();
  const os = options.platform ?? here.os;
  return {
    os,
    arch: options.arch ?? here.arch,
    libc: options.libc ?? (options.platform === undefined ? here.libc : os === 'linux' ? 'glibc' : 'unknown'),
  };
}

/** The last sentence of every "not found": what exists, and the one command that builds it here. */
function remedy(p: Platform): string {
  const pkg = prebuiltPackage(p);
  const prebuilt = pkg
    ? `The prebuilt package for this platform is ${pkg} (installed with @vgwrdma/native unless optional dependencies are omitted).`
    : `No prebuilt package matches ${describePlatform(p)}; prebuilt packages exist for: ${listPrebuilt()}.`;
  return `${prebuilt} To build the library from source here (needs cmake and a C compiler), run: ${BUILD_COMMAND} — or set ${SHIM_DIR_ENV} to a directory holding it.`;
}

/** Resolves the shim directory or throws one NativeLoadError that says what is missing and where it looked. */
export function resolveShimLibraries(options: ResolveShimOptions): ShimLocation {
  const p = platformOf(options);
  const tag = platformTag(p);
  if (!SUPPORTED_OS.includes(p.os)) {
    throw new NativeLoadError(
      'VGW_ERR_NATIVE_UNSUPPORTED_PLATFORM',
      `@vgwrdma/native: no native shims for ${describePlatform(p)}: they need Linux (${SUPPORTED_OS.join(', ')}); ` +
        `prebuilt packages exist for: ${listPrebuilt()}`,
    );
  }
  const env = options.env ?? process.env;
  const explicit: [ShimSource, string | undefined][] = [
    ['option', options.shimDir],
    ['env', env[SHIM_DIR_ENV] || undefined],
  ];
  for (const [source, dir] of explicit) {
    if (dir === undefined) continue;
    const { found, missing } = librariesIn(dir, options.libraries, p.os);
    if (missing.length > 0) {
      const what = source === 'env' ? `${SHIM_DIR_ENV}=${dir}` : `shimDir ${dir}`;
      throw new NativeLoadError(
        'VGW_ERR_NATIVE_LIBRARY_NOT_FOUND',
        `@vgwrdma/native: ${missing.join(', ')} not found in ${what}`,
      );
    }
    return { dir, source, libraries: found };
  }
  const pkg = prebuiltPackage(p);
  const findPackage = options.findPackage ?? installedPackageDir;
  const buildRoot = options.sourceBuildRoot ?? defaultSourceBuildRoot();
  const repoRoot = options.repoBuildRoot ?? defaultRepoBuildRoot();
  const implicit: [ShimSource, string, string | undefined][] = [];
  if (pkg !== undefined) implicit.push(['package', pkg, findPackage(pkg)]);
  implicit.push(['build', `the ${BUILD_COMMAND} directory`, buildRoot && join(buildRoot, tag)]);
  if (repoRoot !== undefined) implicit.push(['repo', 'the repository build', join(repoRoot, tag)]);
  const looked: string[] = [`${SHIM_DIR_ENV} (unset)`];
  for (const [source, label, dir] of implicit) {
    if (dir === undefined) {
      looked.push(`${label} (not installed)`);
      continue;
    }
    const { found, missing } = librariesIn(dir, options.libraries, p.os);
    if (missing.length === 0) return { dir, source, libraries: found };
    looked.push(`${dir} (missing ${missing.join(', ')})`);
  }
  const names = options.libraries.map((n) => libraryFileName(n, p.os)).join(', ');
  throw new NativeLoadError(
    'VGW_ERR_NATIVE_LIBRARY_NOT_FOUND',
    `@vgwrdma/native: native shim ${names} not found for ${describePlatform(p)}; looked in ${looked.join(', ')}. ${remedy(p)}`,
  );
}
