// The shim library (libvgwrdma_shims.so) as the checksum code sees it: found through
// VGWRDMA_SHIM_DIR, the per-platform package @vgwrdma/native-shims-<platform>-<arch>, or the
// repository's native-shims/build/<platform>-<arch>/, and opened once through koffi. Optional by
// design: null when the library or koffi is missing, and callers keep their JavaScript paths.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIBRARY = 'libvgwrdma_shims.so';

export type NativeFn = ((...args: unknown[]) => unknown) & {
  async(...args: [...unknown[], (err: unknown, result: unknown) => void]): void;
};

export interface ShimLibrary {
  func(signature: string): NativeFn;
}

let opened: ShimLibrary | null | undefined;

/** The opened library, or null when it (or koffi) is not available here. Opened once. */
export function shimLibrary(): ShimLibrary | null {
  if (opened === undefined) opened = open();
  return opened;
}

function open(): ShimLibrary | null {
  if (process.platform !== 'linux') return null;
  const path = findLibrary();
  if (!path) return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as { load(path: string): ShimLibrary };
    return koffi.load(path);
  } catch {
    return null;
  }
}

function findLibrary(): string | undefined {
  const tag = `${process.platform}-${process.arch}`;
  const env = process.env.VGWRDMA_SHIM_DIR;
  if (env) return existsSync(join(env, LIBRARY)) ? join(env, LIBRARY) : undefined;
  try {
    const req = createRequire(import.meta.url);
    const root = dirname(req.resolve(`@vgwrdma/native-shims-${tag}/package.json`));
    for (const dir of [join(root, 'lib'), root])
      if (existsSync(join(dir, LIBRARY))) return join(dir, LIBRARY);
  } catch {
    // no platform package: try the repository's build
  }
  // From src/checksums/*.ts (tests) or dist/*.js: find this package, then ../../native-shims.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && readName(pkg) === '@vgwrdma/s3-backend') {
      const path = join(dir, '..', '..', 'native-shims', 'build', tag, LIBRARY);
      return existsSync(path) ? path : undefined;
    }
    dir = dirname(dir);
  }
  return undefined;
}

function readName(pkg: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}
