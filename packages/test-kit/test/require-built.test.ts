// requireBuilt: the globalSetups' check names what is missing and the command that builds it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { missingBuilds, requireBuilt } from '../src/index.js';

describe('requireBuilt', () => {
  const saved = process.env.VGWRDMA_SHIM_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.VGWRDMA_SHIM_DIR;
    else process.env.VGWRDMA_SHIM_DIR = saved;
  });

  it('names a missing dist/ and the build command', () => {
    expect(() => requireBuilt({ dist: ['no-such-package'] })).toThrow(
      /packages\/no-such-package\/dist\/index\.js \(missing\)[\s\S]*npm run build/,
    );
  });

  it('lists each shim library missing from VGWRDMA_SHIM_DIR', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'test-kit-shims-'));
    try {
      process.env.VGWRDMA_SHIM_DIR = dir;
      expect(missingBuilds({ shims: true })).toEqual([
        `${join(dir, 'libvgwrdma_shims.so')} (missing)`,
        `${join(dir, 'libvgw_fake_cudart.so')} (missing)`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('asks for nothing when nothing is needed', () => {
    expect(() => requireBuilt({})).not.toThrow();
  });
});
