#!/usr/bin/env node
import { execFileSync } from 'node:child_process';
// CompleteMultipartUpload's assembly, timed (issue 31 item 3): a PosixBackend (the built
// packages/backend-posix/dist, in this process) on a root in --dir; one upload of --parts parts of
// --part-size each, written by UploadPart (untimed), then CompleteMultipartUpload timed; the object
// is read back and compared (MD5 of the stream against the parts') and its ETag checked.
//   node bench/complete-assemble.mjs [--dir /tmp] [--parts 1000] [--part-size 5MiB] [--rounds 2]
//     [--impl /path/to/other/checkout]   (its packages/backend-posix/dist: e.g. the code before)
// VGWRDMA_COPY_RANGE=off in the environment: the read/write path of the same code.
// Prints one JSON line per round: { dir, fs, parts, partSize, completeMs, cpuMs (this process, all
// threads, during Complete), gbps, verified }.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const { values: a } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp' },
    parts: { type: 'string', default: '1000' },
    'part-size': { type: 'string', default: '5MiB' },
    rounds: { type: 'string', default: '2' },
    impl: { type: 'string', default: REPO },
  },
});
const size = (s) => {
  const m = /^(\d+)(KiB|MiB|GiB)?$/.exec(s);
  if (!m) throw new Error(`bad size ${s}`);
  return Number(m[1]) * (m[2] ? { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 }[m[2]] : 1);
};
const nParts = Number(a.parts);
const partSize = size(a['part-size']);
const { PosixBackend } = await import(
  pathToFileURL(join(resolve(a.impl), 'packages/backend-posix/dist/index.js')).href
);
const fsType = execFileSync('stat', ['-f', '-c', '%T', a.dir]).toString().trim();
const ctx = () => ({
  account: { access: 'bench', role: 'admin' },
  requestId: 'bench',
  signal: new AbortController().signal,
});

for (let round = 0; round < Number(a.rounds); round++) {
  const dir = await mkdtemp(join(a.dir, 'complete-bench-'));
  try {
    const backend = await PosixBackend.open({ root: join(dir, 'root') });
    await backend.createBucket(ctx(), {
      bucket: 'bench',
      owner: 'bench',
      acl: { Owner: 'bench', Grantees: [] },
    });
    const up = await backend.createMultipartUpload(ctx(), { bucket: 'bench', key: 'k' });
    const whole = createHash('md5');
    const parts = [];
    for (let i = 0; i < nParts; i++) {
      const data = Buffer.alloc(partSize, i % 251);
      data.writeUInt32BE(i, 0);
      whole.update(data);
      const p = await backend.uploadPart(ctx(), {
        bucket: 'bench',
        key: 'k',
        uploadId: up.uploadId,
        partNumber: i + 1,
        body: Readable.from([data]),
        contentLength: data.length,
      });
      parts.push({ partNumber: i + 1, etag: p.etag });
    }
    execFileSync('sync');
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await backend.completeMultipartUpload(ctx(), {
      bucket: 'bench',
      key: 'k',
      uploadId: up.uploadId,
      parts,
    });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const got = await backend.getObject(ctx(), { bucket: 'bench', key: 'k' });
    const h = createHash('md5');
    let n = 0;
    for await (const c of got.body) {
      h.update(c);
      n += c.length;
    }
    const verified =
      n === nParts * partSize && h.digest('hex') === whole.digest('hex') && out.etag.endsWith(`-${nParts}"`);
    await backend.shutdown();
    console.log(
      JSON.stringify({
        impl: a.impl === REPO ? 'this checkout' : a.impl,
        copyRange: process.env.VGWRDMA_COPY_RANGE === 'off' ? 'off' : 'on',
        dir: a.dir,
        fs: fsType,
        parts: nParts,
        partSize,
        completeMs: Math.round(ms),
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
        gbps: Number(((nParts * partSize) / (ms / 1000) / 1e9).toFixed(2)),
        verified,
      }),
    );
    if (!verified) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
