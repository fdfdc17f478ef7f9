// Copy and hash ceilings of this machine, measured in the harness's run: single-thread memcpy and
// process_vm_writev into another process (the native shim's probes, via @vgwrdma/rdma-ffi's
// measureCeiling), MD5 of one core by node:crypto over one buffer, and `openssl speed -evp md5`
// when openssl is on the PATH. Decimal GB/s.

import { execFileSync } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { measureCeiling } from '../../packages/rdma-ffi/dist/index.js';

function nodeMd5Gbps(bytes) {
  const buf = randomFillSync(Buffer.allocUnsafe(bytes));
  const t0 = performance.now();
  createHash('md5').update(buf).digest();
  return bytes / ((performance.now() - t0) / 1000) / 1e9;
}

/** `openssl speed -evp md5 -bytes 1048576`: the last figure of the md5 line, in 1000s of bytes/s. */
function opensslMd5Gbps(seconds) {
  try {
    const out = execFileSync(
      'openssl',
      ['speed', '-seconds', String(seconds), '-bytes', '1048576', '-evp', 'md5'],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const line = out.split('\n').find((l) => /^md5\s/i.test(l.trim()));
    const k = line ? Number.parseFloat(line.trim().split(/\s+/).pop()) : Number.NaN;
    return Number.isFinite(k) ? (k * 1000) / 1e9 : null;
  } catch {
    return null;
  }
}

/** One round of every ceiling; `bytes` is the buffer size of each probe. */
export async function measureCeilings(bytes, { opensslSeconds = 1 } = {}) {
  return {
    memcpyGBps: measureCeiling('memcpy', bytes, 1),
    processVmWritevGBps: measureCeiling('processVmWritev', bytes, 1),
    md5NodeGBps: nodeMd5Gbps(bytes),
    md5OpensslGBps: opensslMd5Gbps(opensslSeconds),
  };
}
