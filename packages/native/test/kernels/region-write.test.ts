// regionWriteCall(): the library's mapped region write, bound once installNativeKernels() loaded a
// library. Its bytes land where pwrite would put them, the file never grows, a region past the end
// answers -EFAULT (an error, not a SIGBUS that would end this process), and
// VGWRDMA_REGION_WRITE=pwrite turns it off. (The C test test_region_write covers the guard and
// sixteen threads at once.)
import { closeSync, mkdtempSync, openSync, readFileSync, statSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installNativeKernels } from '../../src/kernels/install-kernels.js';
import { regionWriteCall } from '../../src/kernels/region-write.js';
import { preallocateCall } from '../../src/sys/fallocate.js';

const dir = mkdtempSync(join(tmpdir(), 'vgw-region-write-'));

describe.runIf(process.platform === 'linux')('regionWriteCall', () => {
  it('writes a preallocated region through a mapping; refuses past the end without a signal', async () => {
    installNativeKernels();
    const write = regionWriteCall({});
    expect(write).toBeDefined();
    if (!write) return;
    const p = join(dir, 'assembly');
    const fd = openSync(p, 'wx+');
    try {
      const size = 6 << 20;
      if ((await preallocateCall()(fd, 0, size)) !== 0) return; // no fallocate here: the backend uses pwrite
      const part = new Uint8Array(2 << 20).map((_, i) => (i * 13 + 1) & 0xff);
      const rc = await write(fd, (1 << 20) + 3, part);
      if (rc === -constants.errno.EOPNOTSUPP) return; // kernel before 5.14: pwrite
      expect(rc).toBe(0);
      const back = readFileSync(p);
      expect(back.length).toBe(size);
      expect(back.subarray((1 << 20) + 3, (1 << 20) + 3 + part.length).equals(Buffer.from(part))).toBe(true);
      expect(back.subarray(0, (1 << 20) + 3).every((b) => b === 0)).toBe(true);
      expect(await write(fd, size, part)).toBe(-constants.errno.EFAULT);
      expect(statSync(p).size).toBe(size);
    } finally {
      closeSync(fd);
    }
  });

  it('is off with VGWRDMA_REGION_WRITE=pwrite', () => {
    installNativeKernels();
    expect(regionWriteCall({ VGWRDMA_REGION_WRITE: 'pwrite' })).toBeUndefined();
    expect(regionWriteCall({})).toBe(regionWriteCall({}));
  });
});
