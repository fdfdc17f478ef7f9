// regionMapCall(): the library's mapped region writes, bound once installNativeKernels() loaded a
// library. The bytes land where pwrite would put them, the file never grows, a write past the end
// answers -EFAULT (an error, not a SIGBUS that would end this process), one outside the region
// -ERANGE, close() waits for the writes in flight, and VGWRDMA_REGION_WRITE=pwrite turns it off.
// (The C test test_region_write covers the guard, the dropped pages and sixteen threads at once.)
import { closeSync, mkdtempSync, openSync, readFileSync, statSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installNativeKernels } from '../../src/kernels/install-kernels.js';
import { regionMapCall } from '../../src/kernels/region-write.js';
import { preallocateCall } from '../../src/sys/fallocate.js';

const dir = mkdtempSync(join(tmpdir(), 'vgw-region-write-'));
const { EFAULT, EOPNOTSUPP, ERANGE, EACCES } = constants.errno;

describe.runIf(process.platform === 'linux')('regionMapCall', () => {
  it('writes a preallocated region through a mapping; refuses past the end without a signal', async () => {
    installNativeKernels();
    const map = regionMapCall({});
    expect(map).toBeDefined();
    if (!map) return;
    const p = join(dir, 'assembly');
    const fd = openSync(p, 'wx+');
    try {
      const size = 6 << 20;
      if ((await preallocateCall()(fd, 0, size)) !== 0) return; // no fallocate here: the backend uses pwrite
      const at = (1 << 20) + 3;
      const region = map(fd, at, size); // reaches past the end of the file
      expect(typeof region).toBe('object');
      if (typeof region === 'number') return;
      const part = new Uint8Array(2 << 20).map((_, i) => (i * 13 + 1) & 0xff);
      // two halves written at once, the second first
      const half = part.length / 2;
      const rcs = await Promise.all([
        region.write(at + half, part.subarray(half)),
        region.write(at, part.subarray(0, half)),
      ]);
      if (rcs.includes(-EOPNOTSUPP)) return; // kernel before 5.14: pwrite
      expect(rcs).toEqual([0, 0]);
      expect(await region.write(at - 1, part.subarray(0, 4))).toBe(-ERANGE);
      expect(await region.write(at + size - 2, part.subarray(0, 4))).toBe(-ERANGE);
      // inside the region but past the end of the file
      expect(await region.write(size, part.subarray(0, 4096))).toBe(-EFAULT);
      await Promise.all([region.close(), region.close()]);
      await expect(region.write(at, part.subarray(0, 1))).rejects.toThrow(/after close/);
      const back = readFileSync(p);
      expect(back.length).toBe(size);
      expect(back.subarray(at, at + part.length).equals(Buffer.from(part))).toBe(true);
      expect(back.subarray(0, at).every((b) => b === 0)).toBe(true);
      expect(statSync(p).size).toBe(size);
    } finally {
      closeSync(fd);
    }
  });

  it('answers the errno of a descriptor that cannot be mapped for writing', () => {
    installNativeKernels();
    const map = regionMapCall({});
    if (!map) return;
    const p = join(dir, 'read-only');
    closeSync(openSync(p, 'wx'));
    const fd = openSync(p, 'r');
    try {
      expect(map(fd, 0, 4096)).toBe(-EACCES);
    } finally {
      closeSync(fd);
    }
  });

  it('is off with VGWRDMA_REGION_WRITE=pwrite', () => {
    installNativeKernels();
    expect(regionMapCall({ VGWRDMA_REGION_WRITE: 'pwrite' })).toBeUndefined();
    expect(regionMapCall({})).toBe(regionMapCall({}));
  });
});
