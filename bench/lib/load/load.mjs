// The bench's load generator (issue 22 item 6): `processes` worker processes (worker.mjs), the
// concurrency and the operation count split between them, so that the client's event loop is not
// what a figure measures. Each worker sets up untimed (bucket, objects, presigned URLs, warm-up);
// then the timed window runs from one "go" to the last "done", with the server's CPU (its pids from
// /proc) and the workers' own CPU read around it.

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMsOf } from './proc-cpu.mjs';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));

/** Splits `total` into `parts` near-equal whole shares, none zero (parts ≤ total). */
const shares = (total, parts) =>
  Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));

function ask(child, message, answerKey) {
  return new Promise((resolve, reject) => {
    const onMessage = (m) => {
      if (m.error || m[answerKey]) {
        child.off('message', onMessage);
        child.off('exit', onExit);
        m.error ? reject(new Error(`load worker: ${m.error}`)) : resolve(m);
      }
    };
    const onExit = (code) => reject(new Error(`load worker exited with ${code}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(message);
  });
}

/**
 * One timed run against `server` ({ endpoint, access, secret, region, pids }):
 * spec = { op: 'put'|'get', size, concurrency, ops, processes, client: 'sdk'|'light', bucket, tag }.
 * Returns ops/s, GB/s, the server's and the client's CPU ms in the window, verified and failures.
 */
export async function runLoad(server, spec) {
  const processes = Math.min(spec.processes, spec.concurrency);
  const conc = shares(spec.concurrency, processes);
  const ops = shares(spec.ops, processes);
  const children = conc.map(() =>
    fork(WORKER, [], {
      // the SDK warns about Node 20 once per process
      execArgv: ['--no-warnings'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  try {
    await Promise.all(
      children.map((c, i) =>
        ask(
          c,
          {
            step: 'setup',
            options: {
              endpoint: server.endpoint,
              region: server.region ?? 'us-east-1',
              access: server.access,
              secret: server.secret,
              bucket: spec.bucket,
              client: spec.client,
              op: spec.op,
              size: spec.size,
              concurrency: conc[i],
              ops: ops[i],
              // distinct keys per request in flight (PUTs overwrite them round after round)
              keys: Math.max(conc[i], Math.min(ops[i], spec.keysPerProcess ?? 64)),
              keyPrefix: `${spec.tag}-p${i}`,
              warmup: spec.warmup ?? conc[i] * 2,
            },
          },
          'ready',
        ),
      ),
    );
    const server0 = cpuMsOf(server.pids);
    const t0 = performance.now();
    const done = await Promise.all(children.map((c) => ask(c, { step: 'go' }, 'done')));
    const wallMs = performance.now() - t0;
    const serverCpuMs = cpuMsOf(server.pids) - server0;
    await Promise.all(children.map((c) => ask(c, { step: 'cleanup' }, 'clean')));
    const opsDone = done.reduce((a, d) => a + d.ops, 0);
    const failures = done.flatMap((d) => d.failures);
    return {
      ops: opsDone,
      wallMs,
      opsPerSec: (opsDone * 1000) / wallMs,
      gbps: (opsDone * spec.size) / 1e6 / wallMs,
      serverCpuMs,
      clientCpuMs: done.reduce((a, d) => a + d.cpuMs, 0),
      verified: failures.length === 0 && opsDone === spec.ops,
      failures,
    };
  } finally {
    for (const c of children) c.kill();
  }
}
