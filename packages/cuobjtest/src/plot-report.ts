// --report FILE.svg|html: GB/s by object size, one line per (mode, direction), log2 x axis.
// Plain SVG text (no dependencies); the HTML variant embeds it above a table of the numbers.

import { formatByteSize } from '@vgwrdma/cli-options';
import type { RunResult } from './result.js';

const W = 720;
const H = 420;
const M = { left: 70, right: 160, top: 40, bottom: 60 };
const SERIES: readonly { mode: RunResult['mode']; dir: 'put' | 'get'; color: string; dash: string }[] = [
  { mode: 'rdma', dir: 'put', color: '#1f77b4', dash: '' },
  { mode: 'rdma', dir: 'get', color: '#2ca02c', dash: '' },
  { mode: 'std-s3', dir: 'put', color: '#1f77b4', dash: '6 4' },
  { mode: 'std-s3', dir: 'get', color: '#2ca02c', dash: '6 4' },
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderSvg(results: readonly RunResult[], title = 'cuobjtest: GB/s by object size'): string {
  const sizes = [...new Set(results.map((r) => r.sizeBytes))].sort((a, b) => a - b);
  const maxY =
    Math.max(0.001, ...results.flatMap((r) => [r.put?.gbps ?? 0, r.get?.gbps ?? 0]).filter(Number.isFinite)) *
    1.1;
  const lo = Math.log2(sizes[0] ?? 1);
  const hi = Math.log2(sizes[sizes.length - 1] ?? 1);
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const x = (size: number) => M.left + (hi === lo ? pw / 2 : ((Math.log2(size) - lo) / (hi - lo)) * pw);
  const y = (v: number) => M.top + ph - (Math.min(v, maxY) / maxY) * ph;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="15">${esc(title)}</text>`,
    `<line x1="${M.left}" y1="${M.top + ph}" x2="${M.left + pw}" y2="${M.top + ph}" stroke="black"/>`,
    `<line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${M.top + ph}" stroke="black"/>`,
    `<text x="${M.left + pw / 2}" y="${H - 15}" text-anchor="middle">object size</text>`,
    `<text x="18" y="${M.top + ph / 2}" text-anchor="middle" transform="rotate(-90 18 ${M.top + ph / 2})">GB/s (1e9 B/s)</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const v = (maxY * i) / 4;
    parts.push(
      `<line x1="${M.left}" y1="${y(v)}" x2="${M.left + pw}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${M.left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`,
    );
  }
  for (const s of sizes)
    parts.push(`<text x="${x(s)}" y="${M.top + ph + 18}" text-anchor="middle">${formatByteSize(s)}</text>`);
  let legendY = M.top + 10;
  for (const s of SERIES) {
    const points = results
      .filter((r) => r.mode === s.mode && r[s.dir] !== undefined)
      .map((r) => [r.sizeBytes, r[s.dir]?.gbps ?? 0] as const)
      .filter(([, v]) => Number.isFinite(v))
      .sort((a, b) => a[0] - b[0]);
    if (points.length === 0) continue;
    const label = `${s.mode} ${s.dir.toUpperCase()}`;
    parts.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="2" stroke-dasharray="${s.dash}" points="${points.map(([sz, v]) => `${x(sz).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"><title>${esc(label)}</title></polyline>`,
      ...points.map(
        ([sz, v]) =>
          `<circle cx="${x(sz).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${s.color}"><title>${esc(`${label} ${formatByteSize(sz)}: ${v.toFixed(3)} GB/s`)}</title></circle>`,
      ),
      `<line x1="${W - M.right + 15}" y1="${legendY}" x2="${W - M.right + 45}" y2="${legendY}" stroke="${s.color}" stroke-width="2" stroke-dasharray="${s.dash}"/>`,
      `<text x="${W - M.right + 52}" y="${legendY + 4}">${esc(label)}</text>`,
    );
    legendY += 20;
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

export function renderHtml(results: readonly RunResult[]): string {
  const rows = results
    .map(
      (r) =>
        `<tr><td>${r.mode}</td><td>${formatByteSize(r.sizeBytes)}</td><td>${r.put ? r.put.gbps.toFixed(3) : ''}</td><td>${r.get ? r.get.gbps.toFixed(3) : ''}</td><td>${r.verified}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>cuobjtest report</title></head>
<body>
${renderSvg(results)}
<table border="1" cellpadding="4"><thead><tr><th>mode</th><th>size</th><th>PUT GB/s</th><th>GET GB/s</th><th>verified</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}

/** The report for a file name: .svg or .html/.htm; undefined for another extension. */
export function renderReport(file: string, results: readonly RunResult[]): string | undefined {
  if (/\.svg$/i.test(file)) return renderSvg(results);
  if (/\.html?$/i.test(file)) return renderHtml(results);
  return undefined;
}
