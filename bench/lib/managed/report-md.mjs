// The managed benchmark's markdown: one table per memory kind (GB/s up and down per method and
// size, the gateway's peak RSS), the ratios of the same rounds, and issue 31's targets read from it.
const MiB = 2 ** 20;
const GiB = 2 ** 30;

const cell = (m, dir) => (!m || m.skipped ? '—' : `${m[`${dir}GBps`]}`);

function targets(doc) {
  const out = [];
  const row = (memory, size) => doc.rows.find((r) => r.memory === memory && r.size === size && r.methods);
  const many = doc.host.cpus >= 16;
  const h4 = row('host', 4 * GiB)?.methods.managed;
  const g4 = row('cuda', 4 * GiB)?.methods.managed;
  const check = (label, value, min) =>
    out.push(
      `- ${label}: ${value ?? 'not measured'}${value == null ? '' : value >= min ? ' — met' : ' — **missed**'} (target ≥ ${min})`,
    );
  if (many) {
    check('4 GiB managed upload, host memory, GB/s', h4?.upGBps, 5);
    check('4 GiB managed upload, GPU memory, GB/s', g4?.upGBps, 4.5);
    check('4 GiB managed download, host memory, GB/s', h4?.downGBps, 8);
    check('4 GiB managed download, GPU memory, GB/s', g4?.downGBps, 8);
    for (const [name, r] of [
      ['host', row('host', 4 * GiB)],
      ['GPU', row('cuda', 4 * GiB)],
    ])
      if (r) check(`4 GiB managed upload ÷ download, ${name} memory`, r.ratios.managedUpOverDown, 0.7);
    const g16 = row('cuda', 16 * GiB)?.methods.managed;
    if (g16 && !g16.skipped) {
      const limit = Math.round((doc.gateway.poolBytes + 300 * MiB) / MiB);
      out.push(
        `- 16 GiB GPU round trip: gateway peak RSS ${g16.gatewayPeakRssMiB} MiB against pool + 300 MiB = ${limit} MiB — ${g16.gatewayPeakRssMiB <= limit ? 'met' : '**missed**'}; verified: ${g16.verified}`,
      );
    }
  } else {
    const r1 = row('host', GiB);
    if (r1) {
      const x = r1.ratios.managedOverSingle.up;
      out.push(
        `- 1 GiB managed upload ÷ single RDMA PUT (same rounds): ${x ?? 'not measured'}${x == null ? '' : x >= 1 ? ' — not slower, met' : ' — **slower**'}`,
      );
    }
  }
  return out;
}

export function managedMarkdown(doc) {
  const lines = [
    `# Managed transfers — ${doc.label}`,
    '',
    `${doc.started} · ${doc.host.cpus} cores (${doc.host.model}) · Node ${doc.host.node} · load ${doc.host.loadavgStart.map((x) => x.toFixed(2)).join(' ')} → ${doc.host.loadavgEnd.map((x) => x.toFixed(2)).join(' ')}`,
    '',
    `Transport: ${doc.transport}. Gateway: ${doc.gateway.child}, pool ${doc.gateway.pool.count} × ${doc.gateway.pool.size / MiB} MiB, ${doc.gateway.channels} channels, UV_THREADPOOL_SIZE ${doc.gateway.uvThreadpoolSize}, root in ${doc.gateway.root} (${doc.gateway.rootFs}). Client: part size ${doc.client.partSize / MiB} MiB, ${doc.client.concurrency} parts in flight (managed and HTTP alike). GB/s = 1e9 bytes/s, medians of the rounds; every download compared byte for byte with the data — verified: **${doc.verified}**.`,
    '',
    `Command: \`${doc.command}\``,
    '',
  ];
  for (const memory of [...new Set(doc.rows.map((r) => r.memory))]) {
    const rows = doc.rows.filter((r) => r.memory === memory);
    if (rows[0].skipped) {
      lines.push(`## ${memory} memory: skipped (${rows[0].skipped})`, '');
      continue;
    }
    lines.push(
      `## ${memory === 'cuda' ? 'GPU' : 'Host'} memory`,
      '',
      '| size | managed up | managed down | single PUT | single GET | SDK multipart up (HTTP) | SDK ranged down (HTTP) | managed ÷ single (up / down) | managed ÷ HTTP (up / down) | managed up ÷ down | gateway peak RSS MiB (managed / single / http) | parts, max in flight, retries |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const r of rows) {
      const m = r.methods;
      const rss = ['managed', 'single', 'http']
        .map((k) => (m[k] && !m[k].skipped ? m[k].gatewayPeakRssMiB : '—'))
        .join(' / ');
      lines.push(
        `| ${r.sizeName} | ${cell(m.managed, 'up')} | ${cell(m.managed, 'down')} | ${cell(m.single, 'up')} | ${cell(m.single, 'down')} | ${cell(m.http, 'up')} | ${cell(m.http, 'down')} | ${r.ratios.managedOverSingle.up ?? '—'} / ${r.ratios.managedOverSingle.down ?? '—'} | ${r.ratios.managedOverHttp.up ?? '—'} / ${r.ratios.managedOverHttp.down ?? '—'} | ${r.ratios.managedUpOverDown ?? '—'} | ${rss} | ${m.managed?.parts ?? '—'}, ${m.managed?.maxInFlight ?? '—'}, ${m.managed?.retries ?? '—'} |`,
      );
    }
    const notes = rows.flatMap((r) =>
      Object.entries(r.methods)
        .filter(([, v]) => v.skipped)
        .map(([k, v]) => `${r.sizeName} ${k}: ${v.skipped}`),
    );
    lines.push('', `Data: ${[...new Set(rows.map((r) => `${r.sizeName} ${r.data}`))].join('; ')}.`);
    if (notes.length) lines.push(`Not run: ${notes.join('; ')}.`);
    lines.push('');
  }
  const t = targets(doc);
  if (t.length) lines.push('## Issue 31 targets', '', ...t, '');
  return `${lines.join('\n')}\n`;
}
