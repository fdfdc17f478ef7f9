// The markdown of the CPU figures (lib/cpu.mjs): per operation / per GB for each server, the
// cores each side kept busy in the timed windows, and which side bounds the throughput. Runs
// recorded before these fields existed have no `cpu` and get no such tables.

import { sizeName } from './stats.mjs';

const LEGEND =
  'CPU = utime + stime of the server process (all threads, 10 ms ticks) and of the cuobjtest client ' +
  'process, summed over the timed iterations; "cores" = CPU time / wall time of those windows. ' +
  '"bound by": the side that keeps ≥ 0.85 of a core busy (its main thread is the limit), or all cores ' +
  'when both together use ≥ 90 % of the machine; "neither" = both wait (I/O, round trips).';

const cell = (c, field) => (c ? c[field] : null);

export function cpuSections(doc, table) {
  const out = [];
  const compare = doc.compare.filter((r) => r.cpu);
  if (compare.length > 0) {
    out.push('### CPU of RDMA vs std-s3 through the gateway', '');
    const rows = [];
    for (const r of compare)
      for (const [side, label] of [
        ['rdma', 'RDMA'],
        ['stdS3', 'std'],
      ])
        for (const d of ['put', 'get']) {
          const c = r.cpu[side][d];
          rows.push([
            sizeName(r.sizeBytes),
            `${label} ${d.toUpperCase()}`,
            cell(c, 'serverCpuSecPerGB'),
            cell(c, 'serverCpuMsPerOp'),
            cell(c, 'serverCores'),
            cell(c, 'clientCpuSecPerGB'),
            cell(c, 'clientCores'),
            cell(c, 'boundBy'),
          ]);
        }
    out.push(
      table(
        [
          'size',
          'transfer',
          'gateway CPU s/GB',
          'gateway CPU ms/op',
          'gateway cores',
          'client CPU s/GB',
          'client cores',
          'bound by',
        ],
        rows,
      ),
      '',
    );
  }
  const peers = (doc.peers?.s3rver ?? []).filter((r) => r.cpu);
  if (peers.length > 0) {
    out.push('### CPU of std-s3: the gateway vs s3rver', '');
    const rows = [];
    for (const r of peers)
      for (const d of ['put', 'get']) {
        const g = r.cpu.gateway[d];
        const s = r.cpu.s3rver[d];
        rows.push([
          sizeName(r.sizeBytes),
          d.toUpperCase(),
          cell(g, 'serverCpuSecPerGB'),
          cell(s, 'serverCpuSecPerGB'),
          `${cell(g, 'serverCores')} / ${cell(s, 'serverCores')}`,
          `${cell(g, 'clientCores')} / ${cell(s, 'clientCores')}`,
          `${cell(g, 'boundBy')} / ${cell(s, 'boundBy')}`,
        ]);
      }
    out.push(
      table(
        [
          'size',
          'op',
          'gateway CPU s/GB',
          's3rver CPU s/GB',
          'server cores (gateway / s3rver)',
          'client cores (gateway run / s3rver run)',
          'bound by (gateway / s3rver)',
        ],
        rows,
      ),
      '',
    );
  }
  const ops = doc.ops?.cpu;
  if (ops) {
    out.push(`### CPU of ${sizeName(doc.ops.sizeBytes)} PUTs`, '');
    const rows = [
      ['gateway std-s3', doc.ops.gatewayStdS3OpsPerSec, ops.gatewayStdS3],
      ['gateway RDMA (softnic)', doc.ops.gatewayRdmaOpsPerSec, ops.gatewayRdma],
      ['s3rver', doc.ops.s3rverOpsPerSec, ops.s3rver],
    ].map(([name, rate, c]) => [
      name,
      rate,
      cell(c, 'serverCpuMsPerOp'),
      cell(c, 'clientCpuMsPerOp'),
      cell(c, 'serverCores'),
      cell(c, 'clientCores'),
      cell(c, 'boundBy'),
    ]);
    out.push(
      table(
        [
          'server',
          'PUTs/s',
          'server CPU ms/PUT',
          'client CPU ms/PUT',
          'server cores',
          'client cores',
          'bound by',
        ],
        rows,
      ),
      '',
    );
  }
  if (out.length > 0) out.push(LEGEND, '');
  return out;
}
