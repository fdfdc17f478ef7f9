#!/usr/bin/env node
// Draws the Grafana dashboard's panels from recorded scrapes, without Grafana: each panel's
// PromQL targets are evaluated over the scrapes by the small evaluator below (exactly the query
// shapes the dashboard uses: sum [by (…)] over a selector or rate(selector[window]), and
// histogram_quantile over such a sum), then plotted as an SVG grid that ImageMagick turns into
// a PNG.
//
//   node deploy/grafana/render-dashboard.mjs SCRAPES.json OUT.svg   (then: convert OUT.svg OUT.png)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [scrapesFile, outFile] = process.argv.slice(2);
if (!scrapesFile || !outFile) throw new Error('usage: render-dashboard.mjs SCRAPES.json OUT.svg');
const dashboard = JSON.parse(readFileSync(join(here, 'vgwrdma-dashboard.json'), 'utf8'));
const { scrapes } = JSON.parse(readFileSync(scrapesFile, 'utf8'));

// ---- exposition text → samples -------------------------------------------------------------
const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
function parse(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = line.startsWith('#') ? null : LINE.exec(line);
    if (!m) continue;
    const labels = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}
const frames = scrapes.map((s) => ({ t: s.t, samples: parse(s.text) }));

// ---- the PromQL subset ---------------------------------------------------------------------
const seriesKey = (labels) => JSON.stringify(Object.entries(labels).sort());
function selector(src) {
  const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?$/.exec(src.trim());
  if (!m) throw new Error(`unsupported selector: ${src}`);
  const matchers = [...(m[2] ?? '').matchAll(/(\w+)(=~|=)"([^"]*)"/g)].map(([, k, op, v]) =>
    op === '=' ? (l) => (l[k] ?? '') === v : (l) => new RegExp(`^(?:${v})$`).test(l[k] ?? ''),
  );
  return (frame) => frame.samples.filter((s) => s.name === m[1] && matchers.every((f) => f(s.labels)));
}
const WINDOW = { s: 1, m: 60, h: 3600 };
/** Instant vector at frame i: [{ labels, value }]. */
function inner(src) {
  const r = /^rate\((.*)\[(\d+)([smh])\]\)$/.exec(src.trim());
  if (!r) {
    const sel = selector(src);
    return (i) => sel(frames[i]).map((s) => ({ labels: s.labels, value: s.value }));
  }
  const sel = selector(r[1]);
  const window = Number(r[2]) * WINDOW[r[3]];
  return (i) => {
    let j = i;
    while (j > 0 && frames[i].t - frames[j - 1].t <= window) j--;
    if (j === i) return [];
    const before = new Map(sel(frames[j]).map((s) => [seriesKey(s.labels), s.value]));
    const dt = frames[i].t - frames[j].t;
    return sel(frames[i]).map((s) => ({
      labels: s.labels,
      value: Math.max(0, s.value - (before.get(seriesKey(s.labels)) ?? 0)) / dt,
    }));
  };
}
function sum(src) {
  const m = /^sum(?:\s+by\s+\(([^)]*)\))?\s*\((.*)\)$/.exec(src.trim());
  if (!m) return inner(src);
  const by = (m[1] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const vec = inner(m[2]);
  return (i) => {
    const groups = new Map();
    for (const s of vec(i)) {
      const labels = Object.fromEntries(by.map((k) => [k, s.labels[k] ?? '']));
      const k = seriesKey(labels);
      const g = groups.get(k) ?? { labels, value: 0 };
      g.value += s.value;
      groups.set(k, g);
    }
    return [...groups.values()];
  };
}
function quantile(q, buckets) {
  const sorted = buckets
    .map((b) => ({ le: b.labels.le === '+Inf' ? Infinity : Number(b.labels.le), n: b.value }))
    .sort((a, b) => a.le - b.le);
  const total = sorted.at(-1)?.n ?? 0;
  if (!(total > 0)) return undefined;
  const rank = q * total;
  let prevLe = 0;
  let prevN = 0;
  for (const b of sorted) {
    if (b.n >= rank) {
      if (b.le === Infinity) return prevLe;
      return prevLe + ((b.le - prevLe) * (rank - prevN)) / Math.max(1e-12, b.n - prevN);
    }
    prevLe = b.le;
    prevN = b.n;
  }
  return prevLe;
}
function expr(src) {
  const h = /^histogram_quantile\(([\d.]+),\s*(.*)\)$/.exec(src.trim());
  if (!h) return sum(src);
  const q = Number(h[1]);
  const vec = sum(h[2]);
  return (i) => {
    const groups = new Map();
    for (const s of vec(i)) {
      const { le, ...rest } = s.labels;
      const k = seriesKey(rest);
      const g = groups.get(k) ?? { labels: rest, buckets: [] };
      g.buckets.push({ labels: { le }, value: s.value });
      groups.set(k, g);
    }
    return [...groups.values()].flatMap((g) => {
      const v = quantile(q, g.buckets);
      return v === undefined ? [] : [{ labels: g.labels, value: v }];
    });
  };
}

/** Grafana's variables as it would expand them here: every job and instance, a 1 m rate window. */
function grafanaVars(src) {
  return src.replaceAll('$__rate_interval', '1m').replaceAll('$job', '.*').replaceAll('$instance', '.*');
}

// ---- panels → series -----------------------------------------------------------------------
function panelSeries(panel) {
  const lines = new Map();
  for (const target of panel.targets) {
    const f = expr(grafanaVars(target.expr));
    frames.forEach((frame, i) => {
      for (const s of f(i)) {
        const name = target.legendFormat.replace(/\{\{(\w+)\}\}/g, (_, k) => s.labels[k] || '—');
        const line = lines.get(name) ?? [];
        line.push([frame.t, s.value]);
        lines.set(name, line);
      }
    });
  }
  return [...lines.entries()];
}

// ---- SVG -----------------------------------------------------------------------------------
const COLORS = [
  '#73bf69',
  '#f2cc0c',
  '#5794f2',
  '#ff780a',
  '#f2495c',
  '#b877d9',
  '#8ab8ff',
  '#fade2a',
  '#96d98d',
  '#ffa6b0',
];
const W = 600;
const H = 300;
const esc = (s) =>
  String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
function fmt(v, unit) {
  const a = Math.abs(v);
  const si = (x, base, names) => {
    let i = 0;
    while (Math.abs(x) >= base && i < names.length - 1) {
      x /= base;
      i++;
    }
    return `${Number(x.toPrecision(3))}${names[i]}`;
  };
  if (unit === 'Bps') return `${si(v, 1024, ['B', 'KiB', 'MiB', 'GiB'])}/s`;
  if (unit === 'bytes') return si(v, 1024, ['B', 'KiB', 'MiB', 'GiB']);
  if (unit === 's')
    return a === 0 ? '0' : a < 1 ? `${Number((v * 1000).toPrecision(3))}ms` : `${Number(v.toPrecision(3))}s`;
  return Number(v.toPrecision(3)).toString();
}
function drawPanel(panel, x0, y0) {
  const series = panelSeries(panel);
  const unit = panel.fieldConfig.defaults.unit;
  const left = 70;
  const top = 34;
  const pw = W - left - 16;
  const ph = H - top - 74;
  const tMax = frames.at(-1).t;
  const top0 = Math.max(0, ...series.flatMap(([, pts]) => pts.map((p) => p[1])));
  const vMax = top0 > 0 ? top0 * 1.1 : 1; // an all-zero panel gets a 0..1 axis
  const px = (t) => x0 + left + (t / tMax) * pw;
  const py = (v) => y0 + top + ph - (v / vMax) * ph;
  const parts = [
    `<rect x="${x0 + 4}" y="${y0 + 4}" width="${W - 8}" height="${H - 8}" rx="4" fill="#181b1f" stroke="#2c3235"/>`,
    `<text x="${x0 + 14}" y="${y0 + 24}" fill="#d8d9da" font-size="14" font-weight="bold">${esc(panel.title)}</text>`,
  ];
  for (let k = 0; k <= 4; k++) {
    const v = (vMax / 4) * k;
    parts.push(
      `<line x1="${x0 + left}" x2="${x0 + left + pw}" y1="${py(v)}" y2="${py(v)}" stroke="#2c3235"/>`,
    );
    parts.push(
      `<text x="${x0 + left - 6}" y="${py(v) + 4}" fill="#9fa7b3" font-size="11" text-anchor="end">${esc(fmt(v, unit))}</text>`,
    );
  }
  for (let k = 0; k <= 4; k++) {
    const t = (tMax / 4) * k;
    parts.push(
      `<text x="${px(t)}" y="${y0 + top + ph + 16}" fill="#9fa7b3" font-size="11" text-anchor="middle">${Math.round(t)}s</text>`,
    );
  }
  if (series.length === 0)
    parts.push(
      `<text x="${x0 + W / 2}" y="${y0 + top + ph / 2}" fill="#6e7681" font-size="13" text-anchor="middle">no data</text>`,
    );
  series.forEach(([name, pts], i) => {
    const color = COLORS[i % COLORS.length];
    const d = pts
      .map(([t, v], k) => `${k === 0 ? 'M' : 'L'}${px(t).toFixed(1)},${py(v).toFixed(1)}`)
      .join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="1.8"/>`);
    const lx = x0 + 14 + (i % 3) * 190;
    const ly = y0 + top + ph + 34 + Math.floor(i / 3) * 15;
    if (ly < y0 + H - 6) {
      parts.push(`<rect x="${lx}" y="${ly - 8}" width="12" height="3" fill="${color}"/>`);
      parts.push(
        `<text x="${lx + 16}" y="${ly - 3}" fill="#c7d0d9" font-size="11">${esc(name.slice(0, 28))}</text>`,
      );
    }
  });
  return parts.join('\n');
}
const cols = 3;
const rows = Math.ceil(dashboard.panels.length / cols);
const header = 44;
const svg = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${cols * W}" height="${rows * H + header}" font-family="DejaVu Sans, sans-serif">`,
  `<rect width="100%" height="100%" fill="#111217"/>`,
  `<text x="14" y="28" fill="#d8d9da" font-size="18" font-weight="bold">${esc(dashboard.title)} — ${frames.length} scrapes over ${Math.round(frames.at(-1).t)} s of real traffic</text>`,
  ...dashboard.panels.map((p, i) => drawPanel(p, (i % cols) * W, header + Math.floor(i / cols) * H)),
  '</svg>',
].join('\n');
writeFileSync(outFile, svg);
console.log(`${dashboard.panels.length} panels → ${outFile}`);
