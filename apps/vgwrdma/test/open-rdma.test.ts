import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { StartupError } from '@vgwrdma/errors';
import { createGateway, staticCredentials } from '@vgwrdma/gateway';
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

  it('softnic on the same flags starts, and installs itself into a gateway (CuServer around the backend)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vgw-open-rdma-'));
    try {
      const rdma = await openRdma({ ...FLAGS, transport: 'softnic' });
      const posix = await PosixBackend.open({ root: join(dir, 'root') });
      const gateway = createGateway({ backend: posix, credentials: staticCredentials([]), plugins: [rdma] });
      expect(rdma.readiness().ok).toBe(true);
      expect(rdma.stats().server).toMatchObject({ rdmaPuts: 0, buffersInUse: 0 });
      await gateway.shutdown();
      expect(rdma.pool.closed).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
