// The loader refuses a library of another ABI version, or one lacking a symbol, with
// RdmaLoadError — checked against tiny libraries compiled here with the system C compiler.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RdmaLoadError } from '../src/index.js';
import { EXPECTED_ABI, loadShimLibrary } from '../src/native/shim-library.js';

/** Builds libvgwrdma_shims.so from `source` into a fresh directory and returns the directory. */
function fakeShim(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rdma-ffi-fake-'));
  writeFileSync(join(dir, 'fake.c'), source);
  execFileSync('cc', ['-shared', '-fPIC', '-o', join(dir, 'libvgwrdma_shims.so'), join(dir, 'fake.c')]);
  return dir;
}

function loadError(shimDir: string): RdmaLoadError {
  try {
    loadShimLibrary({ shimDir });
  } catch (e) {
    if (e instanceof RdmaLoadError) return e;
    throw e;
  }
  throw new Error('loaded');
}

describe('loadShimLibrary', () => {
  it('refuses another major ABI version', () => {
    const dir = fakeShim('unsigned vgw_shim_abi_version(void) { return 2u << 16; }\n');
    const e = loadError(dir);
    expect(e.code).toBe('VGW_ERR_RDMA_ABI_MISMATCH');
    expect(e.message).toContain('ABI 2.0');
  });

  it('refuses an older minor version than the one this package needs', () => {
    const e = loadError(fakeShim('unsigned vgw_shim_abi_version(void) { return 1u << 16; }\n'));
    expect(e.code).toBe('VGW_ERR_RDMA_ABI_MISMATCH');
    expect(e.message).toContain('ABI 1.0');
  });

  it('refuses a library of the right version that lacks a function', () => {
    const dir = fakeShim(
      `unsigned vgw_shim_abi_version(void) { return (1u << 16) | ${EXPECTED_ABI.minor}u; }\n`,
    );
    const e = loadError(dir);
    expect(e.code).toBe('VGW_ERR_RDMA_ABI_MISMATCH');
    expect(e.message).toMatch(/lacks a symbol/);
  });

  it('refuses a file that is not a loadable library', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rdma-ffi-fake-'));
    writeFileSync(join(dir, 'libvgwrdma_shims.so'), 'not an ELF file');
    expect(loadError(dir).code).toBe('VGW_ERR_RDMA_LIBRARY_LOAD_FAILED');
  });
});
