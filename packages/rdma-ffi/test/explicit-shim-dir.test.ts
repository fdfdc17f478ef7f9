// One rule for everything native: an explicit VGWRDMA_SHIM_DIR without the library is the same
// NativeLoadError for transfers (HostClient, RdmaServer) as for hashing (installNativeKernels),
// never a silent fall back to another build or to JavaScript.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installNativeKernels } from '@vgwrdma/native/kernels';
import { thrownBy } from '@vgwrdma/test-kit/scene';
import { afterEach, describe, expect, it } from 'vitest';
import { HostClient, NativeLoadError, RdmaServer } from '../src/index.js';

const thrown = (fn: () => unknown): NativeLoadError => thrownBy(fn, NativeLoadError);

describe('an explicit VGWRDMA_SHIM_DIR without the library', () => {
  const before = process.env.VGWRDMA_SHIM_DIR;
  afterEach(() => {
    if (before === undefined) delete process.env.VGWRDMA_SHIM_DIR;
    else process.env.VGWRDMA_SHIM_DIR = before;
  });

  it('fails the same way for transfers and for digests', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-shim-'));
    process.env.VGWRDMA_SHIM_DIR = empty;
    const client = thrown(() => new HostClient());
    const server = thrown(() => new RdmaServer());
    const digests = thrown(() => installNativeKernels());
    expect(client.code).toBe('VGW_ERR_NATIVE_LIBRARY_NOT_FOUND');
    expect(client.message).toBe(
      `@vgwrdma/native: libvgwrdma_shims.so not found in VGWRDMA_SHIM_DIR=${empty}`,
    );
    expect(server.message).toBe(client.message);
    expect(digests.code).toBe(client.code);
    expect(digests.message).toBe(client.message);
  });
});
