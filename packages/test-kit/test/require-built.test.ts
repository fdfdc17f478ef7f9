// requireBuilt: the globalSetups' check names what is missing and the command that builds it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_CUDART, missingBuilds, requireBuilt } from '../src/index.js';

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

  it('looks for the shim library in VGWRDMA_SHIM_DIR when it is set', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'test-kit-shims-'));
    try {
      process.env.VGWRDMA_SHIM_DIR = dir;
      expect(missingBuilds({ shims: true })).toEqual([`${join(dir, 'libvgwrdma_shims.so')} (missing)`]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('finds the repository build of the shims (npm run build made it)', () => {
    delete process.env.VGWRDMA_SHIM_DIR;
    expect(missingBuilds({ shims: true })).toEqual([]);
    expect(FAKE_CUDART).toMatch(/native-shims\/build\/[^/]+\/libvgw_fake_cudart\.so$/);
  });

  it('asks for nothing when nothing is needed', () => {
    expect(() => requireBuilt({})).not.toThrow();
  });
});
