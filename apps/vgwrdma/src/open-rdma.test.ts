import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { describe, expect, it } from 'vitest';
import { StartupError } from './open-backend.js';
import { wrapWithRdma } from './open-rdma.js';

describe('wrapWithRdma', () => {
  it('--rdma-transport cuobj without NVIDIA libcuobjserver: one sentence naming the library', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vgw-open-rdma-'));
    try {
      const posix = await PosixBackend.open({ root: join(dir, 'root') });
      let error: unknown;
      try {
        wrapWithRdma(
          { ip: '127.0.0.1', transport: 'cuobj', port: 19100, poolBufSize: 4096, poolBufCount: 1 },
          posix,
        );
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(StartupError);
      const message = (error as StartupError).message;
      expect(message).toMatch(
        /^cuobj transport unavailable: NVIDIA libcuobjserver\.so is not part of this build/,
      );
      expect(message).not.toContain('\n');
      await posix.shutdown();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('softnic on the same flags starts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vgw-open-rdma-'));
    try {
      const posix = await PosixBackend.open({ root: join(dir, 'root') });
      const wrapped = wrapWithRdma(
        { ip: '127.0.0.1', transport: 'softnic', port: 19100, poolBufSize: 4096, poolBufCount: 1 },
        posix,
      );
      await wrapped.shutdown();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
