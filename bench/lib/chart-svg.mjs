// An SVG bar chart of one result document: GB/s by size for RDMA PUT/GET and std-s3 PUT/GET
// through the gateway and s3rver PUT/GET, with the ceilings drawn as labelled horizontal lines.
// Logarithmic scale (decades), so that ceilings of several GB/s and bars of 0.01 GB/s both read.
// No dependencies.

import { sizeName } from './stats.mjs';

const SERIES = [
  ['RDMA PUT', '#1f77b4', (d, s) => d.compare.find((r) => r.sizeBytes === s)?.rdma.putGBps],
  ['RDMA GET', '#aec7e8', (d, s) => d.compare.find((r) => r.sizeBytes === s)?.rdma.getGBps],
  [
    'std-s3 PUT',
    '#ff7f0e',
    (d, s) =>
      d.compare.find((r) => r.sizeBytes === s)?.stdS3.putGBps ??
      d.peers.s3rver.find((r) => r.sizeBytes === s)?.gatewayStdS3.putGBps,
  ],
  [
    'std-s3 GET',
    '#ffbb78',
    (d, s) =>
      d.compare.find((r) => r.sizeBytes === s)?.stdS3.getGBps ??
      d.peers.s3rver.find((r) => r.sizeBytes === s)?.gatewayStdS3.getGBps,
  ],
  ['s3rver PUT', '#2ca02c', (d, s) => d.peers.s3rver.find((r) => r.sizeBytes === s)?.s3rver.putGBps],
  ['s3rver GET', '#98df8a', (d, s) => d.peers.s3rver.find((r) => r.sizeBytes === s)?.s3rver.getGBps],
];
const CEILINGS = [
  ['memcpy', 'memcpyGBps'],
  ['process_vm_writev', 'processVmWritevGBps'],
  ['MD5 (openssl)', 'md5OpensslGBps'],
];

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function svgChart(doc) {
  const sizes = [...new Set([...doc.compare, ...doc.peers.s3rver].map((r) => r.sizeBytes))].sort(
    (a, b) => a - b,
  );
  const W = 900,
    H = 420,
    L = 60,
    R = 170,
    T = 40,
    B = 50;
  const values = sizes.flatMap((s) => SERIES.map(([, , get]) => get(doc, s) ?? 0));
  const ceil = CEILINGS.map(([name, k]) => [name, doc.ceilings[k]]).filter(([, v]) => v);
  const all = [...values, ...ceil.map(([, v]) => v)].filter((v) => v > 0);
  const lo = Math.floor(Math.log10(Math.min(...all, 1)));
  const hi = Math.ceil(Math.log10(Math.max(...all, 0.1)));
  const y = (v) => T + (H - T - B) * (1 - (Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo));
  const group = (W - L - R) / sizes.length;
  const bar = (group * 0.8) / SERIES.length;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${L}" y="16" font-size="13">${esc(`GB/s (1e9, log scale) by object size — ${doc.machine.label}`)}</text>`,
    `<text x="${L}" y="32" font-size="10">${esc(doc.transport)}</text>`,
    `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="black"/>`,
    `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="black"/>`,
  ];
  for (let e = lo; e <= hi; e++) {
    parts.push(`<text x="${L - 6}" y="${y(10 ** e) + 4}" text-anchor="end">${10 ** e}</text>`);
    parts.push(`<line x1="${L}" y1="${y(10 ** e)}" x2="${W - R}" y2="${y(10 ** e)}" stroke="#eee"/>`);
  }
  sizes.forEach((s, gi) => {
    const x0 = L + gi * group + group * 0.1;
    SERIES.forEach(([name, color, get], si) => {
      const v = get(doc, s);
      if (!v) return;
      parts.push(
        `<rect x="${x0 + si * bar}" y="${y(v)}" width="${bar - 1}" height="${H - B - y(v)}" fill="${color}"><title>${esc(`${name} ${sizeName(s)}: ${v} GB/s`)}</title></rect>`,
      );
    });
    parts.push(`<text x="${x0 + group * 0.4}" y="${H - B + 16}" text-anchor="middle">${sizeName(s)}</text>`);
  });
  for (const [name, v] of ceil) {
    parts.push(
      `<line x1="${L}" y1="${y(v)}" x2="${W - R}" y2="${y(v)}" stroke="#888" stroke-dasharray="4 3"/>`,
    );
    parts.push(`<text x="${W - R + 4}" y="${y(v) + 4}" fill="#555">${esc(`${name} ${v}`)}</text>`);
  }
  SERIES.forEach(([name, color], i) => {
    parts.push(`<rect x="${W - R + 4}" y="${T + 150 + i * 16}" width="10" height="10" fill="${color}"/>`);
    parts.push(`<text x="${W - R + 18}" y="${T + 159 + i * 16}">${esc(name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
