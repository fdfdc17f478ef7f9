// A server child process (the gateway or a peer) on a temp root: started from a child script that
// prints {"port": N}; exposes its endpoint, its pid's peak RSS (VmHWM) and a reset of that peak
// (clear_refs 5), and stops it and removes its root.

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPTS = {
  gateway: fileURLToPath(new URL('./gateway-child.mjs', import.meta.url)),
  s3rver: fileURLToPath(new URL('./s3rver-child.mjs', import.meta.url)),
};

export async function startServer(kind, options = {}) {
  const root = await mkdtemp(join(tmpdir(), `bench-${kind}-`));
  const child = spawn(process.execPath, [SCRIPTS[kind], JSON.stringify({ root, ...options })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => {
    err = (err + d.toString()).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise((resolve, reject) => {
    lines.once('line', (l) => resolve(JSON.parse(l).port));
    child.once('exit', (code) => reject(new Error(`${kind} exited with ${code}: ${err}`)));
  });
  child.removeAllListeners('exit');
  const status = async (field) => {
    const text = await readFile(`/proc/${child.pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : null;
  };
  return {
    kind,
    root,
    pid: child.pid,
    endpoint: `http://127.0.0.1:${port}`,
    peakRssBytes: () => status('VmHWM'),
    rssBytes: () => status('VmRSS'),
    resetPeakRss: () => writeFile(`/proc/${child.pid}/clear_refs`, '5'),
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}
