// The readable summary of one result document: markdown tables (RDMA vs std-s3 with ratios and
// fractions of the ceilings, the peers, 4 KiB ops/s, peak RSS, the targets). Figures are decimal
// GB/s; the transport is named in the heading of every table.

import { cpuSections } from './report-cpu-md.mjs';
import { sizeName } from './stats.mjs';

const f = (x) => (x === null || x === undefined ? '–' : String(x));
const table = (head, rows) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(f).join(' | ')} |`),
  ].join('\n');

export function markdownSummary(doc) {
  const c = doc.ceilings;
  const out = [
    `# Benchmark ${doc.timestamp} (${doc.mode})`,
    '',
    `Machine: ${doc.machine.label}; ${doc.machine.cpus} × ${doc.machine.cpuModel}; Node ${doc.machine.node}; ` +
      `load average ${doc.machine.loadAverage.start.join(' / ')} at start, ${doc.machine.loadAverage.end.join(' / ')} at end. ` +
      `Command: \`${doc.command}\`. Verified: **${doc.verified}**.`,
    '',
    `Transport: ${doc.transport}.`,
    '',
    '## RDMA vs std-s3 through the gateway (GB/s, ratios = medians of per-pair A/B ratios)',
    '',
    table(
      [
        'size',
        'n',
        'RDMA PUT',
        'std PUT',
        'PUT ×',
        'RDMA GET',
        'std GET',
        'GET ×',
        'PUT/MD5',
        'GET/pvw',
        'verified',
      ],
      doc.compare.map((r, i) => [
        sizeName(r.sizeBytes),
        r.iterations,
        r.rdma.putGBps,
        r.stdS3.putGBps,
        r.ratio.put,
        r.rdma.getGBps,
        r.stdS3.getGBps,
        r.ratio.get,
        doc.fractions[i].rdmaPutOfMd5,
        doc.fractions[i].rdmaGetOfProcessVmWritev,
        r.verified,
      ]),
    ),
    '',
    `Ceilings (same run, ${sizeName(c.bufferBytes)} buffers, median of ${c.rounds}): memcpy ${f(c.memcpyGBps)}, ` +
      `process_vm_writev ${f(c.processVmWritevGBps)}, MD5 node:crypto ${f(c.md5NodeGBps)}, MD5 openssl speed ${f(c.md5OpensslGBps)} GB/s. ` +
      'PUT/MD5 uses the openssl figure when present.',
    '',
    '## std-s3 (HTTP bodies, loopback): the gateway vs peers',
    '',
    table(
      ['size', 'n', 'gateway PUT', 's3rver PUT', 'PUT ×', 'gateway GET', 's3rver GET', 'GET ×', 'verified'],
      doc.peers.s3rver.map((r) => [
        sizeName(r.sizeBytes),
        r.iterations,
        r.gatewayStdS3.putGBps,
        r.s3rver.putGBps,
        r.ratio.put,
        r.gatewayStdS3.getGBps,
        r.s3rver.getGBps,
        r.ratio.get,
        r.verified,
      ]),
    ),
    '',
    `Ceph RGW: ${doc.peers.cephRgw.status} — ${doc.peers.cephRgw.reason}`,
    '',
    `## ${sizeName(doc.ops.sizeBytes)} PUT ops/s (${doc.ops.concurrency} in parallel, ${doc.ops.putsPerRound} PUTs a round after ${doc.ops.warmupPutsPerRound ?? 0} untimed, median of ${doc.ops.rounds})`,
    '',
    table(
      ['gateway std-s3', 'gateway RDMA (softnic)', 's3rver', 'std-s3 / s3rver', 'verified'],
      [
        [
          doc.ops.gatewayStdS3OpsPerSec,
          doc.ops.gatewayRdmaOpsPerSec,
          doc.ops.s3rverOpsPerSec,
          doc.ops.ratioStdS3VsS3rver,
          doc.ops.verified,
        ],
      ],
    ),
    '',
    `## Gateway peak RSS: ${doc.rss.concurrency} concurrent ${sizeName(doc.rss.sizeBytes)} RDMA GETs (${doc.rss.transport})`,
    '',
    table(
      ['peak RSS MiB', 'pool MiB', 'over pool MiB', 'GET GB/s (all)', 'verified'],
      [
        [
          Math.round(doc.rss.peakRssBytes / 2 ** 20),
          Math.round(doc.rss.poolBytes / 2 ** 20),
          Math.round(doc.rss.peakOverPoolBytes / 2 ** 20),
          doc.rss.getGBps,
          doc.rss.verified,
        ],
      ],
    ),
    '',
    doc.rss.note,
    '',
    ...cpuSections(doc, table),
    '## Targets (issue 7)',
    '',
    table(
      ['target', 'value', 'threshold', 'met'],
      doc.targets.map((t) => [
        t.target,
        t.value,
        t.threshold,
        t.met === null ? '–' : t.met ? 'yes' : '**no**',
      ]),
    ),
    '',
    `Chart: [${doc.chartFile}](${doc.chartFile})`,
    '',
  ];
  return out.join('\n');
}
