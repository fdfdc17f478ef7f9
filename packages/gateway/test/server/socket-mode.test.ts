// A unix socket with a requested mode (--socket-perm) is never reachable beyond that mode, not
// even between bind(2) and the chmod that follows: the mode the socket file has when chmod is
// called (recorded by wrapping node:fs/promises' chmod) has no bit the requested mode leaves out.
// Before, the socket was bound under the process umask (0755 with umask 022) and only then
// narrowed, so a local user could connect in that window. The final mode is exactly the one asked
// for (chmod adds what the process umask took away), the umask is restored, and the socket serves.
import { request } from 'node:http';
import { join } from 'node:path';
import { makeTempDir, removeDir } from '@vgwrdma/test-kit';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { staticCredentials } from '../../src/auth/index.js';
import { createGateway } from '../../src/create-gateway.js';

const seen = vi.hoisted(() => [] as number[]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    chmod: async (path: string, mode: number) => {
      seen.push((await real.lstat(path)).mode & 0o777);
      return real.chmod(path, mode);
    },
  };
});
const { lstat } = await import('node:fs/promises');

/** The process umask, read without leaving it changed. */
function currentUmask(): number {
  const mask = process.umask(0o077);
  process.umask(mask);
  return mask;
}

function statusOver(socketPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: 'GET', path: '/' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('unix socket mode', () => {
  let dir: string;
  const gateway = createGateway({
    backend: new MemoryBackend(),
    credentials: staticCredentials([
      { access: 'AK', secret: 'secret-0123456789', account: { role: 'admin' } },
    ]),
    region: 'us-east-1',
  });
  beforeAll(async () => {
    dir = await makeTempDir('vgwrdma-socket-mode-');
  });
  afterAll(async () => {
    await gateway.shutdown();
    await removeDir(dir);
  });

  for (const [mode, umask] of [
    [0o600, 0o022],
    [0o660, 0o027],
    [0o666, 0o002],
  ] as const) {
    it(`--socket-perm ${mode.toString(8)} under umask ${umask.toString(8).padStart(3, '0')}: never wider, then exact`, async () => {
      const socketPath = join(dir, `s-${mode.toString(8)}.sock`);
      const before = process.umask(umask);
      seen.length = 0;
      try {
        const running = await gateway.listen({ port: 0, socketPath, socketMode: mode });
        expect(seen).toHaveLength(1);
        // Between bind and chmod: no permission beyond the requested mode.
        expect((seen[0] ?? 0o777) & ~mode).toBe(0);
        expect((await lstat(socketPath)).mode & 0o777).toBe(mode);
        expect(currentUmask()).toBe(umask);
        // Anonymous GET / over the socket: refused, but answered.
        expect(await statusOver(socketPath)).toBe(403);
        await running.close();
      } finally {
        process.umask(before);
      }
    });
  }
});
