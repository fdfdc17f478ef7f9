// Renders stress/results/last-run.md from the runs of stress/run.mjs: one table of targets, the
// figures each wrote, and the load run's gateway RSS curve (a table and a text chart).
import { cpus, totalmem } from 'node:os';

const pass = (r) => (r.ok ? 'pass' : 'FAIL');

function killFigures(f) {
  const s = f.summary;
  return [
    `rounds ${s.rounds}; writes acknowledged before the kills ${s.acknowledgedWrites}; objects audited after restarts ${s.objectsAudited}; ` +
      `corrupt or partial ${s.corruptOrPartial}`,
    `temp files left by the kills ${s.tempFilesLeftByKills}, after restarts ${s.tempFilesAfterRestarts}; ` +
      `multipart claims left ${s.claimsLeftByKills}, after restarts ${s.claimsAfterRestarts}; in-flight completes retried ${s.completesRetried}`,
  ];
}

function loadFigures(f) {
  const ops = Object.entries(f.byOperation)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return [
    `${f.clients} clients, ${f.seconds} s: ${f.operations} operations (${f.opsPerSecond}/s: ${ops}); ` +
      `${f.writtenMB} MB written, ${f.readMB} MB read and verified`,
    `errors ${f.errors}, corrupt reads ${f.corruptReads}, RDMA declines ${f.declines}`,
    `gateway RSS: ${f.rss.atWarmupEndMiB} MiB at the end of warm-up (${f.rss.warmupSeconds} s), peak ${f.rss.peakMiB}, ` +
      `last ${f.rss.lastMiB}; growth after warm-up ${f.rss.growthMiB} MiB (last quarter vs first), slope ${f.rss.slopeMiBPerMin} MiB/min`,
  ];
}

/** Every ~5 s sample, and a bar per sample scaled to the peak. */
function rssCurve(samples) {
  if (!samples?.length) return [];
  const peak = Math.max(...samples.map((s) => s.rssMiB));
  const every = Math.max(1, Math.round(samples.length / 13));
  const rows = samples.filter((_, i) => i % every === 0 || i === samples.length - 1);
  return [
    '',
    '| t (s) | RSS (MiB) | |',
    '|---:|---:|---|',
    ...rows.map(
      (s) => `| ${s.t} | ${s.rssMiB} | ${'#'.repeat(Math.max(1, Math.round((s.rssMiB / peak) * 40)))} |`,
    ),
  ];
}

const FIGURES = { kill: killFigures, load: loadFigures };

export function renderReport(runs, meta) {
  const lines = [
    '# Last stress runs',
    '',
    `Node ${meta.node}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB; softnic on one host (loopback), not RDMA hardware.`,
    "Each target's latest run:",
    '',
    '| target | what | result | tests | seconds | when | command |',
    '|---|---|---|---|---:|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.name} | ${r.what} | ${pass(r)} | ${r.tests.passed} passed, ${r.tests.failed} failed | ` +
        `${r.seconds} | ${r.date} | \`${r.command}\` |`,
    ),
  ];
  for (const r of runs) {
    const render = FIGURES[r.name];
    if (!render || !r.figures) continue;
    lines.push('', `## ${r.name}`, '', ...render(r.figures).map((l) => `- ${l}`));
    if (r.name === 'load') lines.push(...rssCurve(r.figures.rss?.samples));
    lines.push('', `Raw figures: \`${r.resultsFile}\`.`);
  }
  return `${lines.join('\n')}\n`;
}
