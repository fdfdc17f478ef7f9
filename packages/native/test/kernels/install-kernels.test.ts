// installNativeKernels() puts the shim's kernels under backend-contract's registry, and what the
// registry hands out afterwards really runs on them (not a silent JavaScript fallback): the CRC
// hashers are the native ones (they can update off the main thread), large-body digests run off
// the main thread, and the values equal node:crypto's and the WebAssembly kernel's. When no
// library exists at all, hashing stays in JavaScript with one warning; any other failure throws.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHECKSUMS,
  checksumKernelStatus,
  installChecksumKernels,
  streamDigest,
} from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { NativeLoadError } from '../../src/errors.js';
import { installNativeKernels, nativeKernelsFor, openOrAbsent } from '../../src/kernels/install-kernels.js';
import { resolveShimLibraries } from '../../src/library-resolver.js';
import { type NativeLogger, setNativeLogger } from '../../src/logger.js';
import { loadNativeLibrary } from '../../src/shim-library.js';

function capture(): NativeLogger & { lines: [level: string, message: string, fields: object][] } {
  const lines: [string, string, object][] = [];
  return {
    lines,
    info: (fields, message) => void lines.push(['info', message, fields]),
    warn: (fields, message) => void lines.push(['warn', message, fields]),
  };
}

/** The real resolver's "nothing here" error: no env, no package, empty build directories. */
function absent(): never {
  resolveShimLibraries({
    libraries: ['vgwrdma_shims'],
    env: {},
    findPackage: () => undefined,
    sourceBuildRoot: mkdtempSync(join(tmpdir(), 'none-')),
    repoBuildRoot: mkdtempSync(join(tmpdir(), 'none-')),
  });
  throw new Error('resolved');
}

describe('installNativeKernels', () => {
  it('installs native CRCs and off-thread digests, and the registry uses them', async () => {
    const status = installNativeKernels();
    expect(status).toMatchObject({ crc: 'native', digest: 'off-thread' });
    expect(status.library?.path).toBe(loadNativeLibrary().path);
    expect(checksumKernelStatus()).toEqual({ crc: 'native', digest: 'off-thread' });
    expect(installNativeKernels()).toBe(status); // once: later calls answer the same

    const data = randomBytes((2 << 20) + 11);
    const crc64 = CHECKSUMS.CRC64NVME.create();
    expect(crc64.updateOffThread).toBeTypeOf('function'); // only the native hasher has it
    await crc64.updateOffThread?.(data);
    const crc32c = CHECKSUMS.CRC32C.create();
    crc32c.update(data);
    const sha = streamDigest('sha256', data.length);
    expect(sha.offThread).toBe(true);
    sha.update(data);

    installChecksumKernels({}); // the WebAssembly kernel and inline digests, as oracles
    const wasm64 = CHECKSUMS.CRC64NVME.create();
    expect(wasm64.updateOffThread).toBeUndefined();
    wasm64.update(data);
    const wasm32 = CHECKSUMS.CRC32C.create();
    wasm32.update(data);
    expect(crc64.digest()).toBe(wasm64.digest());
    expect(crc32c.digest()).toBe(wasm32.digest());
    expect((await sha.digest()).toString('hex')).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('VGWRDMA_DIGEST=inline and VGWRDMA_CRC=wasm each turn one family off, without a warning', () => {
    const log = capture();
    setNativeLogger(log);
    try {
      const lib = loadNativeLibrary();
      const inline = nativeKernelsFor(lib, { VGWRDMA_DIGEST: 'inline' });
      expect(inline.offThreadDigest).toBeUndefined();
      expect(inline.crc).toBeDefined();
      const wasm = nativeKernelsFor(lib, { VGWRDMA_CRC: 'wasm' });
      expect(wasm.crc).toBeUndefined();
      const md5 = wasm.offThreadDigest?.('md5');
      expect(md5).toBeDefined();
      md5?.dispose();
    } finally {
      setNativeLogger(undefined);
    }
    expect(log.lines).toEqual([]);
  });

  it('falls back to JavaScript with one warning when no library exists here', () => {
    const log = capture();
    setNativeLogger(log);
    try {
      expect(openOrAbsent(absent, false)).toBeUndefined();
    } finally {
      setNativeLogger(undefined);
    }
    expect(log.lines).toHaveLength(1);
    const [level, message, fields] = log.lines[0] ?? [];
    expect(level).toBe('warn');
    expect(message).toMatch(/not found: CRCs run on WebAssembly and MD5\/SHA-256 in JavaScript/);
    expect(fields).toMatchObject({ code: 'VGW_ERR_NATIVE_LIBRARY_NOT_FOUND' });
  });

  it('throws instead when the missing library was asked for explicitly', () => {
    expect(() => openOrAbsent(absent, true)).toThrow(NativeLoadError);
  });

  it('throws for a library that is there but unusable', () => {
    const wrong = () => {
      throw new NativeLoadError('VGW_ERR_NATIVE_ABI_MISMATCH', 'ABI 2.0');
    };
    expect(() => openOrAbsent(wrong, false)).toThrow('ABI 2.0');
  });
});
