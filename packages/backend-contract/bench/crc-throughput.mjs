// Throughput of each registry checksum on 64 MiB fed in 1 MiB chunks (how upload bodies
// arrive), next to MD5 (the ETag, the PUT's hard wall per the performance targets (bench/README.md)) and the SDK's own
// implementations. Not a test: `pnpm --filter @vgwrdma/backend-contract bench` (builds dist first).
// Rounds interleave every candidate (A B C … A B C …) so machine load hits all alike; the
// median round is printed, in decimal GB/s, with the ratio to MD5 measured in the same rounds.
// Every candidate's digest is checked against the registry's, so a fast wrong answer fails.

import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Crc32c as AwsCryptoCrc32c } from '@aws-crypto/crc32c';
import { Crc32c as SdkCrc32c, Crc64Nvme as SdkCrc64Nvme } from '@aws-sdk/checksums/crc';
import { CHECKSUMS } from '../dist/index.js';

const SIZE = 64 * 1024 * 1024;
const CHUNK = 1024 * 1024;
const ROUNDS = 5;
const data = randomBytes(SIZE);
const chunks = [];
for (let i = 0; i < SIZE; i += CHUNK) chunks.push(data.subarray(i, i + CHUNK));

const b64 = (u8) => Buffer.from(u8).toString('base64');
const candidates = {
  MD5: { run: () => hashAll(createHash('md5')).digest('base64') },
  ...Object.fromEntries(
    Object.entries(CHECKSUMS).map(([alg, spec]) => [
      `registry ${alg}`,
      { run: () => hashAll(spec.create()).digest() },
    ]),
  ),
  'sdk Crc32c (@aws-sdk/checksums)': {
    run: async () => b64(await hashAll(new SdkCrc32c()).digest()),
    same: 'CRC32C',
  },
  'sdk Crc64Nvme (@aws-sdk/checksums)': {
    run: async () => b64(await hashAll(new SdkCrc64Nvme()).digest()),
    same: 'CRC64NVME',
  },
  '@aws-crypto/crc32c': {
    run: () => {
      const c = new AwsCryptoCrc32c();
      for (const ch of chunks) c.update(ch);
      const out = Buffer.alloc(4);
      out.writeUInt32BE(c.digest() >>> 0);
      return out.toString('base64');
    },
    same: 'CRC32C',
  },
};

function hashAll(h) {
  for (const c of chunks) h.update(c);
  return h;
}

const times = Object.fromEntries(Object.keys(candidates).map((k) => [k, []]));
const digests = {};
for (let round = 0; round <= ROUNDS; round++) {
  for (const [name, c] of Object.entries(candidates)) {
    const t0 = process.hrtime.bigint();
    digests[name] = await c.run();
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    if (round > 0) times[name].push(s); // round 0 warms up
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const md5 = median(times.MD5);
const rows = [];
console.log(
  `node ${process.version}, ${SIZE / 2 ** 20} MiB in ${CHUNK / 1024} KiB chunks, median of ${ROUNDS} rounds`,
);
for (const [name, c] of Object.entries(candidates)) {
  if (c.same && digests[name] !== digests[`registry ${c.same}`])
    throw new Error(`${name} disagrees with the registry`);
  const t = median(times[name]);
  const gbps = SIZE / t / 1e9;
  rows.push({ name, gbps: Number(gbps.toFixed(3)), vsMd5: Number((md5 / t).toFixed(2)) });
  console.log(
    `${name.padEnd(36)} ${gbps.toFixed(2).padStart(6)} GB/s  ${(md5 / t).toFixed(2).padStart(5)}× MD5`,
  );
}

const combine = CHECKSUMS.CRC64NVME.combine;
const zero = CHECKSUMS.CRC64NVME.create().digest();
const t0 = process.hrtime.bigint();
for (let i = 0; i < 1000; i++) combine(zero, zero, 5 * 1024 * 1024 + i); // distinct lengths: no cache hits
const perPart = Number(process.hrtime.bigint() - t0) / 1e6 / 1000;
console.log(`CRC64NVME combine, distinct lengths  ${perPart.toFixed(3)} ms/part`);
const t1 = process.hrtime.bigint();
for (let i = 0; i < 1000; i++) combine(zero, zero, 5 * 1024 * 1024); // one part size: cached shift
const perEqualPart = Number(process.hrtime.bigint() - t1) / 1e6 / 1000;
console.log(`CRC64NVME combine, equal 5 MiB parts ${perEqualPart.toFixed(3)} ms/part`);
writeFileSync(
  new URL(process.env.BENCH_OUT ?? './results/crc-throughput.json', import.meta.url),
  `${JSON.stringify({ node: process.version, rows, combineMsPerPart: perPart, combineMsPerEqualPart: perEqualPart }, null, 2)}\n`,
);
