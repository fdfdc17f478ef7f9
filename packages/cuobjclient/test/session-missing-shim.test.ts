// A missing shim library: Session.open fails once, clearly. Its own file (its own process),
// because the library is loaded once per process and nothing may load it before this test.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openError } from './cuobj-errors.js';

describe('Session.open without the shim', () => {
  it('a missing shim library is one clear error naming the library and where it looked', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'no-shim-'));
    try {
      const e = await openError({ size: 4096, shimDir: empty });
      expect(e.code).toBe('VGW_ERR_CUOBJ_UNAVAILABLE');
      expect(e.message).toContain('libvgwrdma_shims.so');
      expect(e.message).toContain(empty);
      expect((e.cause as { code?: string }).code).toBe('VGW_ERR_NATIVE_LIBRARY_NOT_FOUND');
      const viaEnv = await openError({ size: 4096, env: { VGWRDMA_SHIM_DIR: empty } });
      expect([viaEnv.code, viaEnv.message]).toEqual([
        'VGW_ERR_CUOBJ_UNAVAILABLE',
        expect.stringContaining(empty),
      ]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
