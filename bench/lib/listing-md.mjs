// The listing scenario's markdown table (lib/listing.mjs results): per key count and server, the
// full listing's total and per-page times, the delimiter and prefix listings, and peer / gateway.

const ms = (x) => (x === null || x === undefined ? '–' : `${x}`);

export function listingMarkdown(doc) {
  const lines = [
    `Listing (${doc.command}; ${doc.client}; ${doc.machine.cpus} cores, load ${doc.machine.loadAverage.start.join(' ')} → ${doc.machine.loadAverage.end.join(' ')})`,
    '',
    '| keys | server | full listing ms (rounds) | per page ms: median / first / last / max | server CPU ms | client CPU ms | delimiter ms | prefix ms | fill PUT/s |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of doc.results) {
    for (const [name, s] of Object.entries(r.servers)) {
      const p = s.perPageMs;
      lines.push(
        `| ${r.keys} | ${name} | ${s.totalMs} (${s.totalsMs.join(', ')}) | ${ms(p.median)} / ${ms(p.first)} / ${ms(p.last)} / ${ms(p.max)} | ${ms(s.serverCpuMs)} | ${ms(s.clientCpuMs)} | ${ms(s.delimiterMs)} | ${ms(s.prefixMs)} | ${r.fillPutPerSec[name]} |`,
      );
    }
    for (const [name, s] of Object.entries(r.servers)) {
      const l = s.light;
      lines.push(
        `| ${r.keys} | ${name}, light client | ${l.totalMs} (${l.totalsMs.join(', ')}) | ${ms(l.perPageMs)} | ${ms(l.serverCpuMs)} | ${ms(l.clientCpuMs)} | | | |`,
      );
    }
    for (const [peer, q] of Object.entries(r.ratios)) {
      lines.push(
        `| ${r.keys} | ${peer} ÷ gateway (time) | **${q.full}×** | | ${q.serverCpu}× | | ${q.delimiter}× | ${q.prefix}× | |`,
        `| ${r.keys} | ${peer} ÷ gateway, light client | **${q.light}×** | | ${q.lightServerCpu}× | | | | |`,
      );
    }
  }
  if (doc.peer.rgw.skipped) lines.push('', `RGW not measured: ${doc.peer.rgw.skipped}`);
  return `${lines.join('\n')}\n`;
}
