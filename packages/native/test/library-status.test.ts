// The loader's one start line: logged once, at the first load of a file, naming the file, where
// it was found, its ABI and which optional kernels are active on this machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveShimLibraries } from '../src/library-resolver.js';
import { setNativeLogger } from '../src/logger.js';
import { loadNativeLibrary } from '../src/shim-library.js';

const cpuFlags =
  readFileSync('/proc/cpuinfo', 'utf8')
    .match(/^flags\s*:(.*)$/m)?.[1]
    ?.split(/\s+/) ?? [];
const accelerated = process.arch === 'x64' && cpuFlags.includes('pclmulqdq') && cpuFlags.includes('sse4_2');

describe('start line', () => {
  it('names the file, its origin, ABI and kernels, once', () => {
    const lines: [string, Record<string, unknown>][] = [];
    setNativeLogger({ info: (f, m) => void lines.push([m, f]), warn: (f, m) => void lines.push([m, f]) });
    try {
      const where = resolveShimLibraries({ libraries: ['vgwrdma_shims'], env: {} });
      const lib = loadNativeLibrary({ env: {} });
      loadNativeLibrary({ env: {} });
      expect(lines).toEqual([
        [
          'native library loaded',
          {
            path: join(where.dir, 'libvgwrdma_shims.so'),
            // in the workspace: the per-platform package, linked to native-shims/build
            source: 'package',
            abi: lib.abi,
            crc: accelerated ? 'pclmul+sse4.2' : 'portable',
            digest: 'openssl (process)',
            verbs: expect.any(Boolean),
          },
        ],
      ]);
      expect(lib.abi).toMatch(/^1\.\d+$/);
    } finally {
      setNativeLogger(undefined);
    }
  });
});
