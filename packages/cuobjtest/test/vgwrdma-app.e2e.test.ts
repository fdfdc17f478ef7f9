// cuobjtest against the real gateway application (apps/vgwrdma, built dist/main.js) started with
// --rdma-ip 127.0.0.1 (CuServer + cu-middleware over softnic): --compare in one run, JSON checked.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../src/index.js';

const BIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const APP = fileURLToPath(new URL('../../../apps/vgwrdma/dist/main.js', import.meta.url));
const ACCESS = 'cuobjtest-app';
const SECRET = 'cuobjtest-app-secret';

describe('cuobjtest against apps/vgwrdma --rdma-ip 127.0.0.1', () => {
  let child: ChildProcess;
  let root: string;
  let endpoint: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'cuobjtest-app-'));
    await mkdir(join(root, 'data'));
    await mkdir(join(root, 'meta'));
    child = spawn(
      process.execPath,
      [
        APP,
        '--port',
        '127.0.0.1:0',
        '--access',
        ACCESS,
        '--secret',
        SECRET,
        '--rdma-ip',
        '127.0.0.1',
        'posix',
        '--sidecar',
        join(root, 'meta'),
        join(root, 'data'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    endpoint = await new Promise<string>((resolve, reject) => {
      lines.on('line', (l) => {
        const m = /^\s*endpoint:\s*(\S+)/.exec(l);
        if (m?.[1]) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`vgwrdma exited with ${code}: ${err}`)));
    });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('--compare: both modes verified in both directions, with ratios', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        BIN,
        '-endpoint',
        endpoint,
        '-access',
        ACCESS,
        '-secret',
        SECRET,
        '-size',
        '2MiB',
        '-n',
        '2',
        '--compare',
        '--json',
      ],
      { env: { ...process.env, CI: '1' }, maxBuffer: 1 << 24 },
    );
    const results = JSON.parse(stdout) as RunResult[];
    expect(
      results.map((r) => [
        r.mode,
        r.sizeBytes,
        r.verified,
        r.put?.iterations.length,
        r.get?.iterations.length,
      ]),
    ).toEqual([
      ['rdma', 2 ** 21, true, 2, 2],
      ['std-s3', 2 ** 21, true, 2, 2],
    ]);
    expect(results[0]?.vsStdS3?.get?.pairs).toHaveLength(2);
  });
});
