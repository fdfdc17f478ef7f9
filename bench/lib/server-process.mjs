// A server child process (the gateway or a peer) on a temp root: started from a child script that
// prints {"port": N}; exposes its endpoint, its pid's peak RSS (VmHWM) and a reset of that peak
// (clear_refs 5), and stops it and removes its root.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
// The gateway is test-kit's gateway child (posix + the RDMA plugin). bench/device/bundle.mjs puts
// its bundle beside the bundled harness, as gateway-child.mjs; in the workspace it is test-kit's.
const GATEWAY_CHILD = existsSync(here('./gateway-child.mjs'))
  ? here('./gateway-child.mjs')
  : here('../../packages/test-kit/src/gateway-child.mjs');

/** kind → the child script and its JSON argument, given the temp root and startServer's options. */
const SERVERS = {
  // options: { access, secret, channels, pool: { count, size }, etagPartSize?, putLanes?, maxPerAgent? } (rdma: false for none)
  gateway: {
    script: GATEWAY_CHILD,
    args: (root, { access, secret, channels, pool, rdma, etagPartSize, putLanes, maxPerAgent }) => ({
      access,
      secret,
      backend: { kind: 'posix', root, ...(etagPartSize === undefined ? {} : { etagPartSize }) },
      rdma:
        rdma === false
          ? false
          : {
              channels,
              pool,
              ioTimeoutMs: 30_000,
              poolWaitMs: 60_000,
              ...(putLanes === undefined ? {} : { putLanes }),
              ...(maxPerAgent === undefined ? {} : { maxPerAgent }),
            },
    }),
  },
  s3rver: { script: here('./s3rver-child.mjs'), args: (root) => ({ root }) },
};

export async function startServer(kind, options = {}) {
  const root = await mkdtemp(join(options.rootParent ?? tmpdir(), `bench-${kind}-`));
  const { script, args } = SERVERS[kind];
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server (e.g. --cpu-prof --cpu-prof-dir=DIR).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, script, JSON.stringify(args(root, options))], {
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
