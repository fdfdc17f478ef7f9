// The plain-path comparison as markdown (`--peer`): one table per peer — ops/s, GB/s, server CPU
// per operation with the per-pair ratios —, the large-PUT fraction of the MD5 ceiling, the
// gateway's CPU per GB on large GETs, and issue 22's targets met or not.

import { sizeName } from './stats.mjs';

const f = (x) => (x === null || x === undefined ? '–' : String(x));
const table = (head, rows) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(f).join(' | ')} |`),
  ].join('\n');
const row = (rows, size, op, client) =>
  rows?.find((r) => r.sizeBytes === size && r.op === op && r.client === client);
const MiB = 2 ** 20;

/** Issue 22's targets against one peer's rows (the light client: it leaves the cores to the servers). */
export function plainTargets(rows, md5GBps, largeSize) {
  const light = (size, op) => row(rows, size, op, 'light');
  const list = [
    ['4 KiB PUT ops/s ≥ 2× peer', light(4096, 'put')?.ratio.ops, 2, 'min'],
    ['4 KiB GET ops/s ≥ 2× peer', light(4096, 'get')?.ratio.ops, 2, 'min'],
    ['4 KiB PUT server CPU/op ≤ 0.5× peer', light(4096, 'put')?.ratio.serverCpuPerOp, 0.5, 'max'],
    ['4 KiB GET server CPU/op ≤ 0.5× peer', light(4096, 'get')?.ratio.serverCpuPerOp, 0.5, 'max'],
    ['1 MiB PUT ops/s ≥ 1.5× peer', light(MiB, 'put')?.ratio.ops, 1.5, 'min'],
    ['1 MiB GET ops/s ≥ 1.5× peer', light(MiB, 'get')?.ratio.ops, 1.5, 'min'],
    [
      `${sizeName(largeSize)} PUT ≥ 0.7× one-core MD5 ceiling`,
      md5GBps ? light(largeSize, 'put')?.gateway.gbps / md5GBps : null,
      0.7,
      'min',
    ],
  ];
  return list.map(([target, v, threshold, kind]) => {
    const value = v === undefined || v === null || Number.isNaN(v) ? null : Number(v.toFixed(3));
    return {
      target,
      value,
      threshold,
      met: value === null ? null : kind === 'min' ? value >= threshold : value <= threshold,
    };
  });
}

export function plainMarkdown(doc) {
  const md5 = doc.ceilings.md5OpensslGBps ?? doc.ceilings.md5NodeGBps;
  const out = [
    `# Plain S3 path vs peers ${doc.timestamp} (${doc.mode})`,
    '',
    `Machine: ${doc.machine.label}; ${doc.machine.cpus} × ${doc.machine.cpuModel}; Node ${doc.machine.node}; ` +
      `load average ${doc.machine.loadAverage.start.join(' / ')} at start, ${doc.machine.loadAverage.end.join(' / ')} at end. ` +
      `Command: \`${doc.command}\`. Verified: **${doc.verified}**.`,
    '',
    `Transport: HTTP/1.1 on loopback, every server in its own process; the client: ${doc.processes} load-generator ` +
      'processes, `light` = node:http on presigned URLs (UNSIGNED-PAYLOAD), `sdk` = @aws-sdk/client-s3 (payload ' +
      'signed, default checksums). Rounds alternate gateway / peer; × = median of per-pair ratios gateway / peer. ' +
      'Server CPU from /proc (utime + stime, all threads; RGW = radosgw + ceph-osd + ceph-mon).',
    '',
    `Stores: the gateway's posix root on ${doc.gatewayStore?.fstype ?? 'unknown'} (\`${doc.gatewayStore?.root ?? '?'}\`); ` +
      'Ceph RGW on a memstore OSD (in memory), s3rver on the OS temp dir.',
    '',
    `One-core MD5 ceiling in this run: ${f(md5)} GB/s (${doc.ceilings.md5OpensslGBps ? 'openssl speed' : 'node:crypto'}).`,
  ];
  for (const [peer, p] of Object.entries(doc.peers)) {
    out.push('', `## gateway (posix) vs ${peer}`, '');
    if (p.skipped) {
      out.push(`Skipped: ${p.skipped}`);
      continue;
    }
    out.push(
      table(
        [
          'size',
          'op',
          'client',
          'conc',
          'gateway ops/s',
          `${peer} ops/s`,
          'ops ×',
          'gateway CPU ms/op',
          `${peer} CPU ms/op`,
          'CPU ×',
          'gateway GB/s',
          `${peer} GB/s`,
        ],
        p.rows.map((r) => [
          sizeName(r.sizeBytes),
          r.op.toUpperCase(),
          r.client,
          r.concurrency,
          r.gateway.opsPerSec,
          r.peer.opsPerSec,
          r.ratio.ops,
          r.gateway.serverCpuMsPerOp,
          r.peer.serverCpuMsPerOp,
          r.ratio.serverCpuPerOp,
          r.gateway.gbps,
          r.peer.gbps,
        ]),
      ),
      '',
      table(
        [
          'size',
          'op',
          'client',
          'gateway CPU s/GB',
          `${peer} CPU s/GB`,
          'gateway cores busy',
          `${peer} cores busy`,
          'client CPU ms/op (gateway runs)',
        ],
        p.rows
          .filter((r) => r.sizeBytes >= MiB)
          .map((r) => [
            sizeName(r.sizeBytes),
            r.op.toUpperCase(),
            r.client,
            r.gateway.serverCpuSecPerGB,
            r.peer.serverCpuSecPerGB,
            r.gateway.serverCores,
            r.peer.serverCores,
            r.gateway.clientCpuMsPerOp,
          ]),
      ),
      '',
      `### Targets (issue 22, light client) vs ${peer}`,
      '',
      table(
        ['target', 'value', 'threshold', 'met'],
        p.targets.map((t) => [t.target, t.value, t.threshold, t.met === null ? '–' : t.met ? 'yes' : 'no']),
      ),
    );
  }
  return `${out.join('\n')}\n`;
}
