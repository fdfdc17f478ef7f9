// Ceiling rounds spread over the run (one before the transfers, the rest after), medians kept,
// and each measured figure expressed as a fraction of the ceiling that bounds it.

import { measureCeilings } from './ceilings.mjs';
import { median, round } from './stats.mjs';

export async function ceilingRound(ceiling, rounds) {
  rounds.push(await measureCeilings(ceiling.bytes, { opensslSeconds: ceiling.opensslSeconds }));
}

export function ceilingMedians(rounds, bytes) {
  const of = (k) => round(median(rounds.map((r) => r[k]).filter((x) => x !== null)));
  return {
    bufferBytes: bytes,
    rounds: rounds.length,
    memcpyGBps: of('memcpyGBps'),
    processVmWritevGBps: of('processVmWritevGBps'),
    md5NodeGBps: of('md5NodeGBps'),
    md5OpensslGBps: of('md5OpensslGBps'),
    samples: rounds.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v)]))),
  };
}

/** RDMA PUT against the one-core MD5 ceiling (an S3 PUT must hash), RDMA GET against process_vm_writev. */
export function fractions(compare, ceilings) {
  const md5 = ceilings.md5OpensslGBps ?? ceilings.md5NodeGBps;
  return compare.map((row) => ({
    sizeBytes: row.sizeBytes,
    rdmaPutOfMd5: round(row.rdma.putGBps / md5),
    rdmaPutOfNodeMd5: round(row.rdma.putGBps / ceilings.md5NodeGBps),
    rdmaGetOfProcessVmWritev: round(row.rdma.getGBps / ceilings.processVmWritevGBps),
    rdmaGetOfMemcpy: round(row.rdma.getGBps / ceilings.memcpyGBps),
    stdS3GetOfMemcpy: round(row.stdS3.getGBps / ceilings.memcpyGBps),
  }));
}
