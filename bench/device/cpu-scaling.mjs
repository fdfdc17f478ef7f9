#!/usr/bin/env node
// How MD5 and memcpy scale with threads on this machine (issue 31: is one client's upload bound by
// CPU?). N worker threads each hash (md5) or copy (copy) 8 × 64 MiB at once; prints the aggregate
// GB/s and each thread's. Plain Node, no workspace: it travels in the device bundle.
//   node bench/device/cpu-scaling.mjs md5|copy N
import { Worker } from 'node:worker_threads';

const [kind, count] = [process.argv[2], Number(process.argv[3])];
if (!['md5', 'copy'].includes(kind) || !(count >= 1)) {
  console.error('usage: cpu-scaling.mjs md5|copy THREADS');
  process.exit(2);
}
const ROUNDS = 8;
const SIZE = 64 << 20;
const code = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const src = Buffer.alloc(${SIZE}, 7);
const dst = Buffer.alloc(${SIZE}, 1);
parentPort.once('message', () => {
  const t = process.hrtime.bigint();
  for (let i = 0; i < ${ROUNDS}; i++) {
    if (workerData === 'md5') createHash('md5').update(src).digest();
    else src.copy(dst);
  }
  parentPort.postMessage((${ROUNDS} * ${SIZE}) / Number(process.hrtime.bigint() - t));
});`;
const workers = Array.from({ length: count }, () => new Worker(code, { eval: true, workerData: kind }));
await new Promise((resolve) => setTimeout(resolve, 1500)); // every worker has allocated and touched its buffers
const t = process.hrtime.bigint();
const rates = await Promise.all(
  workers.map(
    (w) =>
      new Promise((resolve) => {
        w.once('message', resolve);
        w.postMessage(0);
      }),
  ),
);
const seconds = Number(process.hrtime.bigint() - t) / 1e9;
const total = (count * ROUNDS * SIZE) / seconds / 1e9;
console.log(
  `${kind} ${count} threads: aggregate GB/s ${total.toFixed(2)}, per thread ${rates.map((r) => r.toFixed(2)).join(' ')}`,
);
process.exit(0);
