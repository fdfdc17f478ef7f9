// The built gateway and its native library: at start it logs one line saying which
// libvgwrdma_shims it loaded, from where, and which kernels are active; with a VGWRDMA_SHIM_DIR
// that lacks the library it does not start, and says which directory it looked in.
import { makeTempDir, ROOT_CREDENTIALS, removeDir, runMain, startGateway } from '@vgwrdma/test-kit';
import { appWorkDir } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

const workDir = appWorkDir('vgwrdma-native-');

function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('native library at start', () => {
  it('logs one line naming the file, its origin, ABI and the active kernels', async () => {
    const gw = await startGateway();
    try {
      const lines = logLines(gw.stderr());
      const loaded = lines.filter((l) => l.msg === 'native library loaded');
      expect(loaded).toHaveLength(1);
      expect(loaded[0]).toMatchObject({
        level: 30,
        // in the workspace, the per-platform package's lib/ (a link to native-shims/build/linux-x64)
        path: expect.stringMatching(/native-shims-linux-x64\/lib\/libvgwrdma_shims\.so$/),
        source: 'package',
        abi: expect.stringMatching(/^1\.\d+$/),
        crc: expect.stringMatching(/^(pclmul\+sse4\.2|portable)$/),
        digest: 'openssl (process)',
      });
      // no fallback warning ('native library not found', 'native digests unavailable')
      expect(lines.filter((l) => String(l.msg).startsWith('native') && l.level !== 30)).toEqual([]);
    } finally {
      await gw.stop();
    }
  });

  it('refuses to start when VGWRDMA_SHIM_DIR lacks the library, naming the directory', async () => {
    const empty = await makeTempDir('vgwrdma-no-shim-');
    try {
      const result = await runMain(['--port', '127.0.0.1:0', 'posix', workDir()], {
        ROOT_ACCESS_KEY_ID: ROOT_CREDENTIALS.access,
        ROOT_SECRET_ACCESS_KEY: ROOT_CREDENTIALS.secret,
        VGWRDMA_SHIM_DIR: empty,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`libvgwrdma_shims.so not found in VGWRDMA_SHIM_DIR=${empty}`);
      expect(result.stdout).toBe('');
    } finally {
      await removeDir(empty);
    }
  });
});
