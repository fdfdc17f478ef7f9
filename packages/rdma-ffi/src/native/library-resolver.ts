// Finds the directory holding the native shim libraries, in this order:
//   1. an explicit `shimDir` option,  2. the VGWRDMA_SHIM_DIR environment variable,
//   3. a per-platform package `@vgwrdma/native-shims-<platform>-<arch>` (its `lib/` or root),
//   4. the in-repo build `native-shims/build/<platform>-<arch>/` (after `npm run build`).
// An explicit choice (1 or 2) that lacks a library is an error: silently falling back to another
// build would test the wrong binary. Every failure is one RdmaLoadError naming what is missing.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RdmaLoadError } from '../errors.js';

/** Platforms the shims are built for (softnic needs Linux's process_vm_readv/writev). */
export const SUPPORTED_PLATFORMS: readonly string[] = ['linux-x64', 'linux-arm64'];

/** Environment variable naming a directory with the shim libraries. */
export const SHIM_DIR_ENV = 'VGWRDMA_SHIM_DIR';

export type ShimSource = 'option' | 'env' | 'package' | 'repo';

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
  /** Overrides the in-repo build root (tests). */
  readonly repoBuildRoot?: string;
}

/** `lib<name>.so` (Linux) / `lib<name>.dylib` (macOS). */
export function libraryFileName(name: string, platform: string = process.platform): string {
  return platform === 'darwin' ? `lib${name}.dylib` : `lib${name}.so`;
}

/** The repository's `native-shims/build` directory, found from this package's root; undefined if installed elsewhere. */
export function defaultRepoBuildRoot(): string | undefined {
  // Works from src/native/*.ts (vitest) and from the bundled dist/index.js alike.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === '@vgwrdma/rdma-ffi') {
          return join(dir, '..', '..', 'native-shims', 'build');
        }
      } catch {
        // not JSON: keep walking up
      }
    }
    dir = dirname(dir);
  }
  return undefined;
}

function platformPackageDir(tag: string): string | undefined {
  try {
    const req = createRequire(import.meta.url);
    const root = dirname(req.resolve(`@vgwrdma/native-shims-${tag}/package.json`));
    return existsSync(join(root, 'lib')) ? join(root, 'lib') : root;
  } catch {
    return undefined;
  }
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

/** Resolves the shim directory or throws one RdmaLoadError that says what is missing and where it looked. */
export function resolveShimLibraries(options: ResolveShimOptions): ShimLocation {
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;
  const tag = `${platform}-${arch}`;
  if (!SUPPORTED_PLATFORMS.includes(tag)) {
    throw new RdmaLoadError(
      'VGW_ERR_RDMA_UNSUPPORTED_PLATFORM',
      `@vgwrdma/rdma-ffi: no native shims for ${tag} (supported: ${SUPPORTED_PLATFORMS.join(', ')})`,
    );
  }
  const env = options.env ?? process.env;
  const explicit: [ShimSource, string | undefined][] = [
    ['option', options.shimDir],
    ['env', env[SHIM_DIR_ENV] || undefined],
  ];
  for (const [source, dir] of explicit) {
    if (dir === undefined) continue;
    const { found, missing } = librariesIn(dir, options.libraries, platform);
    if (missing.length > 0) {
      const what = source === 'env' ? `${SHIM_DIR_ENV}=${dir}` : `shimDir ${dir}`;
      throw new RdmaLoadError(
        'VGW_ERR_RDMA_LIBRARY_NOT_FOUND',
        `@vgwrdma/rdma-ffi: ${missing.join(', ')} not found in ${what}`,
      );
    }
    return { dir, source, libraries: found };
  }
  const repoRoot = options.repoBuildRoot ?? defaultRepoBuildRoot();
  const implicit: [string, string | undefined][] = [
    [`@vgwrdma/native-shims-${tag}`, platformPackageDir(tag)],
    ['the repository build', repoRoot === undefined ? undefined : join(repoRoot, tag)],
  ];
  const looked: string[] = [`${SHIM_DIR_ENV} (unset)`];
  for (const [i, [label, dir]] of implicit.entries()) {
    if (dir === undefined) {
      looked.push(`${label} (not installed)`);
      continue;
    }
    const { found, missing } = librariesIn(dir, options.libraries, platform);
    if (missing.length === 0) return { dir, source: i === 0 ? 'package' : 'repo', libraries: found };
    looked.push(`${dir} (missing ${missing.join(', ')})`);
  }
  const names = options.libraries.map((n) => libraryFileName(n, platform)).join(', ');
  throw new RdmaLoadError(
    'VGW_ERR_RDMA_LIBRARY_NOT_FOUND',
    `@vgwrdma/rdma-ffi: native shim ${names} not found for ${tag}; looked in ${looked.join(', ')}. ` +
      `Run \`npm run build\` (builds native-shims with CMake) or set ${SHIM_DIR_ENV} to a directory holding them.`,
  );
}
