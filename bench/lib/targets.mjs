// The "done when" targets as a table: each names the figure it reads from the result
// document, the threshold, and whether the run met it (null when the figure is absent).

const at = (rows, size) => rows?.find((r) => r.sizeBytes === size);
const MiB = 2 ** 20;

const TARGETS = [
  ['RDMA GET ≥ 4× std-s3 GET at 256 MiB', (d) => at(d.compare, 256 * MiB)?.ratio.get, 4],
  ['RDMA PUT ≥ 1.5× std-s3 PUT at 256 MiB', (d) => at(d.compare, 256 * MiB)?.ratio.put, 1.5],
  ['RDMA PUT ≥ 0.8× MD5 ceiling at 256 MiB', (d) => at(d.fractions, 256 * MiB)?.rdmaPutOfMd5, 0.8],
  [
    'RDMA GET ≥ 0.5× process_vm_writev ceiling at 256 MiB',
    (d) => at(d.fractions, 256 * MiB)?.rdmaGetOfProcessVmWritev,
    0.5,
  ],
  ['std-s3 PUT ≥ 2× s3rver at 64 MiB', (d) => at(d.peers?.s3rver, 64 * MiB)?.ratio.put, 2],
  ['std-s3 GET ≥ 2× s3rver at 64 MiB', (d) => at(d.peers?.s3rver, 64 * MiB)?.ratio.get, 2],
  ['std-s3 4 KiB PUT ops/s ≥ 2× s3rver', (d) => d.ops?.ratioStdS3VsS3rver, 2],
  [
    'peak RSS ≤ pool + 300 MiB (16 concurrent RDMA GETs)',
    (d) => d.rss && d.rss.peakOverPoolBytes / MiB,
    300,
    'max',
  ],
];

export function evaluateTargets(doc) {
  return TARGETS.map(([target, read, threshold, kind = 'min']) => {
    const v = read(doc);
    const value = v === undefined || v === null || Number.isNaN(v) ? null : Number(v.toFixed(3));
    const met = value === null ? null : kind === 'min' ? value >= threshold : value <= threshold;
    return { target, value, threshold, met };
  });
}
