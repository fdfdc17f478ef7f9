#!/usr/bin/env node
// Softnic benchmark: PUT (RDMA READ from the client) and GET (RDMA WRITE into the client) of one
// object size through RdmaServer, on the same-host direct path (process_vm_readv/writev) and on
// the TCP path, against the copy ceilings (memcpy, process_vm_writev) measured in the same run.
// The client (HostClient, a softnic agent) runs in a separate process, as in real use. Every
// transfer is verified by SHA-256 of the bytes that arrived; the server counters must show that
// each server used the path it is named for. Rounds alternate direct/tcp/ceiling (A B A B) and
// the medians are reported, in decimal GB/s. Each round also times two PUTs one after the other
// and then concurrently on two channels (parallel.mjs) to show that transfers overlap.
// Figures are softnic on one host, not RDMA hardware.
//
//   npm run bench:softnic -- [--json] [--size 256MiB] [--iterations 5] [--out file.json] [--rebuild]

import { execFileSync, fork } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parallelSpeedup } from './parallel.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkgDir = join(root, 'packages/rdma-ffi');
const distEntry = join(pkgDir, 'dist/index.js');
const protocolDir = join(root, 'packages/rdma-protocol');
const protocolEntry = join(protocolDir, 'dist/index.js');
const cliOptionsDir = join(root, 'packages/cli-options');
const cliOptionsEntry = join(cliOptionsDir, 'dist/index.js');
const shimsDir = join(root, 'native-shims');

const { values: args } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    size: { type: 'string', default: '256MiB' },
    iterations: { type: 'string', default: '5' },
    out: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
  },
});

const log = (...m) => console.error('[bench:softnic]', ...m);

/** Builds the native shims and the rdma-ffi dist when missing (or with --rebuild). */
function ensureBuilt() {
  const libDir = process.env.VGWRDMA_SHIM_DIR ?? join(shimsDir, `build/${process.platform}-${process.arch}`);
  const run = (what, cmd, argv, cwd) => {
    log(`building ${what}...`);
    try {
      execFileSync(cmd, argv, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    } catch {
      log(`building ${what} failed: run \`npm run build\` first`);
      process.exit(2);
    }
  };
  if (args.rebuild || !existsSync(join(libDir, 'libvgwrdma_shims.so'))) {
    if (process.env.VGWRDMA_SHIM_DIR) {
      log(`VGWRDMA_SHIM_DIR=${libDir} has no libvgwrdma_shims.so`);
      process.exit(2);
    }
    run('native-shims', process.execPath, ['build.mjs'], shimsDir);
  }
  // The packages this script loads from their dist/, in build order.
  for (const [name, dir, entry] of [
    ['@vgwrdma/rdma-protocol', protocolDir, protocolEntry],
    ['@vgwrdma/cli-options', cliOptionsDir, cliOptionsEntry],
    ['@vgwrdma/rdma-ffi', pkgDir, distEntry],
  ]) {
    if (args.rebuild || !existsSync(entry)) {
      run(name, process.execPath, [join(dir, 'node_modules/tsup/dist/cli-default.js')], dir);
    }
  }
}

/** The client process, driven over IPC. */
async function startClient(size) {
  const proc = fork(fileURLToPath(new URL('./client.mjs', import.meta.url)), [String(size)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    proc.once('message', resolve);
    proc.once('exit', (code) => reject(new Error(`client exited during start (${code})`)));
  });
  proc.removeAllListeners('exit');
  let next = 1;
  const waiting = new Map();
  proc.on('message', (m) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  const call = (cmd) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, (m) => (m.ok ? resolve(m.value) : reject(new Error(m.error))));
      proc.send({ id, cmd });
    });
  return { proc, call };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const round = (x) => Math.round(x * 1000) / 1000;
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

async function main() {
  const iterations = Number(args.iterations);
  if (!(Number.isInteger(iterations) && iterations > 0))
    throw new Error('--iterations must be a positive integer');
  ensureBuilt();
  // the one byte-size rule of every size flag (README.md, "Byte sizes")
  const { ByteSizeError, parseByteSize } = await import(cliOptionsEntry);
  let size;
  try {
    size = parseByteSize(args.size, { max: 2 ** 30 });
  } catch (e) {
    if (!(e instanceof ByteSizeError)) throw e;
    throw new Error(`--size: ${e.message}`);
  }
  const { RdmaServer, measureCeiling } = await import(distEntry);
  const { parseRdmaToken } = await import(protocolEntry);

  const client = await startClient(size);
  const servers = {
    direct: new RdmaServer({ channels: 2, allowDirect: true }),
    tcp: new RdmaServer({ channels: 2, allowDirect: false }),
  };
  const failures = [];
  try {
    // One pair of buffers, allocated by the direct server and registered on the TCP one too.
    const putBuf = { direct: servers.direct.allocateBuffer(size) };
    const getBuf = { direct: servers.direct.allocateBuffer(size) };
    putBuf.tcp = servers.tcp.registerMemory(putBuf.direct.address, size);
    const put2 = { direct: servers.direct.allocateBuffer(size) };
    put2.tcp = servers.tcp.registerMemory(put2.direct.address, size);
    getBuf.tcp = servers.tcp.registerMemory(getBuf.direct.address, size);
    for (let off = 0; off < size; off += 64 << 20) {
      randomFillSync(getBuf.direct.bytes, off, Math.min(64 << 20, size - off));
    }
    const getDigest = sha256(getBuf.direct.bytes);
    // the client mints strings, as it would send them in x-amz-rdma-token; the server takes them parsed
    const tokens = await client.call('tokens');
    const [putToken, getToken, putDigest] = [
      parseRdmaToken(tokens.put),
      parseRdmaToken(tokens.get),
      tokens.putDigest,
    ];

    const put = async (path) => {
      putBuf.direct.bytes.fill(0);
      const t0 = performance.now();
      const n = await servers[path].handlePut({ buffer: putBuf[path], size, token: putToken });
      const s = (performance.now() - t0) / 1000;
      if (n !== size || sha256(putBuf.direct.bytes) !== putDigest) failures.push(`${path} PUT bytes differ`);
      return size / s / 1e9;
    };
    const get = async (path) => {
      await client.call('clearGet');
      const t0 = performance.now();
      const n = await servers[path].handleGet({ buffer: getBuf[path], size, token: getToken });
      const s = (performance.now() - t0) / 1000;
      if (n !== size || (await client.call('getDigest')) !== getDigest)
        failures.push(`${path} GET bytes differ`);
      return size / s / 1e9;
    };

    // warm-up: connections, same-host proofs, page faults; verified but not timed
    for (const path of ['direct', 'tcp']) {
      await put(path);
      await get(path);
    }
    const parallel = async (path) => {
      const verify = (bytes) => sha256(bytes) === putDigest;
      const buffers = [putBuf[path], put2[path]];
      return parallelSpeedup({ server: servers[path], buffers, size, token: putToken, verify }).catch((e) => {
        failures.push(`${path}: ${e.message}`);
        return 0;
      });
    };
    const r = {
      directPut: [],
      directGet: [],
      tcpPut: [],
      tcpGet: [],
      memcpy: [],
      pvw: [],
      directPar: [],
      tcpPar: [],
    };
    for (let i = 0; i < iterations; i++) {
      log(`round ${i + 1}/${iterations}`);
      r.directPut.push(await put('direct'));
      r.tcpPut.push(await put('tcp'));
      r.directGet.push(await get('direct'));
      r.tcpGet.push(await get('tcp'));
      r.memcpy.push(measureCeiling('memcpy', size, 1));
      r.pvw.push(measureCeiling('processVmWritev', size, 1));
      r.directPar.push(await parallel('direct'));
      r.tcpPar.push(await parallel('tcp'));
    }

    // per path: 2 in the warm-up, then 2 + 4 (parallel check) per round
    const expected = 2 + 6 * iterations;
    const ds = servers.direct.stats();
    const ts = servers.tcp.stats();
    if (ds.directTransfers !== expected || ds.tcpTransfers !== 0) {
      failures.push(`direct server moved ${ds.directTransfers} direct / ${ds.tcpTransfers} tcp transfers`);
    }
    if (ts.tcpTransfers !== expected || ts.directTransfers !== 0) {
      failures.push(`tcp server moved ${ts.tcpTransfers} tcp / ${ts.directTransfers} direct transfers`);
    }
    const ratio = (xs) => round(median(xs.map((x, i) => x / r.pvw[i])));
    return {
      direct: { putGBps: round(median(r.directPut)), getGBps: round(median(r.directGet)) },
      tcp: { putGBps: round(median(r.tcpPut)), getGBps: round(median(r.tcpGet)) },
      ceiling: { memcpyGBps: round(median(r.memcpy)), processVmWritevGBps: round(median(r.pvw)) },
      sizeBytes: size,
      verified: failures.length === 0,
      ...(failures.length ? { failures } : {}),
      directVsCeiling: { put: ratio(r.directPut), get: ratio(r.directGet) },
      // serial time / concurrent time of two PUTs on two channels: ~2 = they overlap
      parallelPutSpeedup: { direct: round(median(r.directPar)), tcp: round(median(r.tcpPar)) },
      iterations,
      transport: 'softnic, same host, client in a separate process (not RDMA hardware)',
      serverPeakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    for (const s of Object.values(servers)) await s.closeAsync();
    await client.call('exit').catch(() => undefined);
  }
}

function table(res) {
  const rows = [
    ['path', 'PUT GB/s', 'GET GB/s'],
    ['softnic direct', res.direct.putGBps, res.direct.getGBps],
    ['softnic tcp', res.tcp.putGBps, res.tcp.getGBps],
    ['ceiling memcpy', res.ceiling.memcpyGBps, ''],
    ['ceiling process_vm_writev', res.ceiling.processVmWritevGBps, ''],
  ];
  const lines = rows.map(
    (r) => `${String(r[0]).padEnd(28)}${String(r[1]).padStart(10)}${String(r[2]).padStart(10)}`,
  );
  lines.push(
    `size ${res.sizeBytes} B, ${res.iterations} rounds (medians), direct/ceiling PUT ${res.directVsCeiling.put} GET ${res.directVsCeiling.get}`,
    `2 concurrent PUTs vs serial: direct ×${res.parallelPutSpeedup.direct}, tcp ×${res.parallelPutSpeedup.tcp}; verified: ${res.verified}`,
  );
  return lines.join('\n');
}

main().then(
  (res) => {
    const json = JSON.stringify(res);
    if (args.out) writeFileSync(args.out, `${JSON.stringify(res, null, 2)}\n`);
    console.log(args.json ? json : table(res));
    process.exitCode = res.verified ? 0 : 1;
  },
  (err) => {
    log(err?.stack ?? String(err));
    process.exitCode = 2;
  },
);
