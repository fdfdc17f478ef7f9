import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { CuServer } from '@vgwrdma/cu-backend';
import { StartupError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { openRdma } from '../src/open-rdma.js';

const FLAGS = { ip: '127.0.0.1', port: 19100, poolBufSize: 4096, poolBufCount: 1 } as const;

describe('openRdma', () => {
  it('--rdma-transport cuobj without NVIDIA libcuobjserver: one sentence naming the library', async () => {
    const error = await openRdma({ ...FLAGS, transport: 'cuobj' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    const message = (error as StartupError).message;
    expect(message).toMatch(
      /^cuobj transport unavailable: NVIDIA libcuobjserver\.so is not part of this build/,
    );
    expect(message).not.toContain('\n');
  });

  it('a transport that cannot start: a StartupError saying what was asked for', async () => {
    const error = await openRdma({ ...FLAGS, transport: 'softnic', shimDir: '/nonexistent' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).message).toMatch(
      /^cannot start RDMA \(softnic on 127\.0\.0\.1, 1 x 4096-byte buffers\): /,
    );
  });

  it('softnic on the same flags starts, and wraps the backend in CuServer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vgw-open-rdma-'));
    try {
      const rdma = await openRdma({ ...FLAGS, transport: 'softnic' });
      const posix = await PosixBackend.open({ root: join(dir, 'root') });
      expect(rdma.wrap(posix)).toBeInstanceOf(CuServer);
      await rdma.shutdown();
      await posix.shutdown();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
