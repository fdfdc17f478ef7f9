// The `vgwrdma` bin (bin/vgwrdma.cjs) sizes libuv's thread pool before the pool starts: one
// thread per core, 4 to 16, unless UV_THREADPOOL_SIZE is set. The ESM entry (dist/main.js) cannot
// (Node's ESM loader has started the pool before its first line runs), so a gateway started from it
// runs on libuv's default 4. The core count is faked with a --require preload that replaces
// os.availableParallelism (this machine may have 2 cores, where the rule gives the default 4); the
// pool is counted as the process's threads, libuv starting all of a pool's threads at once: the
// same gateway started with 6 and 12 "cores" differs by exactly 6 threads through the launcher.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assertBuilt,
  collectOutput,
  exitOf,
  loopbackArgs,
  makeTempDir,
  removeDir,
  track,
  waitForStdout,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LAUNCHER = fileURLToPath(new URL('../bin/vgwrdma.cjs', import.meta.url));
const ESM_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
let dir: string;
let fakeCores: string;

beforeAll(async () => {
  assertBuilt();
  dir = await makeTempDir('vgwrdma-launcher-');
  fakeCores = join(dir, 'fake-cores.cjs');
  writeFileSync(
    fakeCores,
    "const os = require('node:os'); const n = Number(process.env.FAKE_CORES); os.availableParallelism = () => n;\n",
  );
});
afterAll(async () => {
  await removeDir(dir);
});

/** Starts `entry` (through the preload) with a clean environment; the thread count once it serves. */
async function threadsOf(entry: string, env: Record<string, string>): Promise<number> {
  const root = await makeTempDir('vgwrdma-launcher-root-');
  const child: ChildProcess = track(
    spawn(process.execPath, ['--require', fakeCores, entry, ...loopbackArgs(), 'posix', root], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const out = collectOutput(child);
  const exited = exitOf(child);
  try {
    await waitForStdout(child, out, exited, /^\s*endpoint:\s+(https?:\/\/\S+)$/m, 'the gateway banner');
    // The banner comes after the root was checked and opened: the pool has started by then.
    return readdirSync(`/proc/${child.pid}/task`).length;
  } finally {
    child.kill('SIGTERM');
    await exited;
    await removeDir(root);
  }
}

describe('bin/vgwrdma.cjs', () => {
  it('gives libuv one thread per core (4 to 16) before the pool starts', async () => {
    const six = await threadsOf(LAUNCHER, { FAKE_CORES: '6' });
    const twelve = await threadsOf(LAUNCHER, { FAKE_CORES: '12' });
    expect(twelve - six).toBe(6);
    const forty = await threadsOf(LAUNCHER, { FAKE_CORES: '40' });
    expect(forty - six).toBe(10); // capped at 16
  });

  it('keeps a UV_THREADPOOL_SIZE that is set', async () => {
    const six = await threadsOf(LAUNCHER, { FAKE_CORES: '6' });
    const set = await threadsOf(LAUNCHER, { FAKE_CORES: '6', UV_THREADPOOL_SIZE: '9' });
    expect(set - six).toBe(3);
  });

  it('control: the ESM entry alone stays on libuv default pool whatever the cores', async () => {
    const six = await threadsOf(ESM_MAIN, { FAKE_CORES: '6' });
    const twelve = await threadsOf(ESM_MAIN, { FAKE_CORES: '12' });
    expect(twelve - six).toBe(0);
  });
});
