import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { NativeLoadError } from '@vgwrdma/rdma-ffi';
import { describe, expect, it } from 'vitest';
import { openCuServer } from '../src/index.js';

describe('openCuServer', () => {
  it('creates the server with the flags and registers the pool once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cu-open-'));
    try {
      const cu = openCuServer(
        {
          ip: '127.0.0.1',
          poolBufSize: 1 << 20,
          poolBufCount: 3,
          dcKey: 0x1234n,
          numDcis: 5,
          cqDepth: 321,
          retryCount: 3,
          poolWaitMs: 50,
          directPrivileged: true,
        },
        await PosixBackend.open({ root: join(dir, 'root') }),
      );
      expect(cu.name).toBe('cuserver(posix)');
      expect(cu.rdmaServer.provider).toBe('softnic');
      expect(cu.rdmaServer.tunables).toMatchObject({
        num_dcis: 5,
        cq_depth: 321,
        retry_cnt: 3,
        direct_privileged: 1, // --rdma-direct-privileged reaches the C tunables
      });
      expect(BigInt(cu.rdmaServer.tunables.dc_key)).toBe(0x1234n);
      expect(cu.bufferPool.stats()).toMatchObject({ count: 3, bufferSize: 1 << 20, free: 3 });
      await cu.shutdown();
      expect(cu.bufferPool.closed).toBe(true);
      expect(cu.rdmaServer.connected).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a transport this host cannot use, naming the missing library, creating nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cu-open-'));
    try {
      const posix = await PosixBackend.open({ root: join(dir, 'root') });
      const open = () =>
        openCuServer(
          { ip: '127.0.0.1', transport: 'cuobj', port: 19100, poolBufSize: 4096, poolBufCount: 1 },
          posix,
        );
      expect(open).toThrow(NativeLoadError);
      expect(open).toThrow(/libcuobjserver\.so/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
