#!/usr/bin/env node
// `npm run stress`: the full-size runs of the fault and load tests (apps/vgwrdma/test/faults),
// which `npm test` runs small. Each target is the same vitest file with its size raised through
// environment variables; its figures land in stress/results/<target>.json and a readable summary
// (with the load run's RSS curve) in stress/results/last-run.md.
//
//   node stress/run.mjs [--only kill,client-kill,load] [--rounds 50] [--repeat 20]
//                       [--clients 64] [--seconds 60] [--build]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderReport } from './report.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(ROOT, 'stress', 'results');

const { values: opts } = parseArgs({
  options: {
    only: { type: 'string' },
    rounds: { type: 'string', default: '50' },
    repeat: { type: 'string', default: '20' },
    clients: { type: 'string', default: '64' },
    seconds: { type: 'string', default: '60' },
    build: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

/** Target → the fault test it scales, and how. `results` names the env var for its JSON file. */
const TARGETS = {
  kill: {
    file: 'apps/vgwrdma/test/faults/gateway-kill.e2e.test.ts',
    what: `kill -9 of the gateway mid HTTP PUT / multipart complete / RDMA PUT, ${opts.rounds} rounds`,
    env: { FAULT_ROUNDS: opts.rounds },
    results: 'FAULT_RESULTS_FILE',
  },
  'client-kill': {
    file: 'apps/vgwrdma/test/faults/client-kill.e2e.test.ts',
    what: `client process killed mid RDMA PUT and mid RDMA GET, ${opts.repeat} times each`,
    env: { FAULT_REPEAT: opts.repeat },
  },
  load: {
    file: 'apps/vgwrdma/test/faults/load.e2e.test.ts',
    what: `${opts.clients} clients for ${opts.seconds} s, mixed HTTP and RDMA, RSS flat after warm-up`,
    env: { LOAD_CLIENTS: opts.clients, LOAD_SECONDS: opts.seconds, LOAD_ASSERT_FLAT: '1' },
    results: 'LOAD_RESULTS_FILE',
  },
};

if (opts.help) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .slice(1, 8)
      .join('\n'),
  );
  process.exit(0);
}
const chosen = opts.only ? opts.only.split(',') : Object.keys(TARGETS);
for (const name of chosen) {
  if (!(name in TARGETS)) {
    console.error(`unknown target '${name}'; targets: ${Object.keys(TARGETS).join(', ')}`);
    process.exit(2);
  }
}

if (opts.build || !existsSync(join(ROOT, 'apps/vgwrdma/dist/main.js'))) {
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
mkdirSync(RESULTS, { recursive: true });

const runs = [];
for (const name of chosen) {
  const t = TARGETS[name];
  const resultsFile = join(RESULTS, `${name}.json`);
  const vitestJson = join(tmpdir(), `vgwrdma-stress-${process.pid}-${name}.vitest.json`);
  const env = { ...process.env, ...t.env, ...(t.results ? { [t.results]: resultsFile } : {}) };
  console.log(`\n== ${name}: ${t.what}`);
  const started = Date.now();
  const r = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'vgwrdma',
      t.file.replace('apps/vgwrdma/', ''),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestJson}`,
    ],
    { cwd: ROOT, env, stdio: 'inherit' },
  );
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  let tests = { passed: 0, failed: 0 };
  try {
    const j = JSON.parse(readFileSync(vitestJson, 'utf8'));
    // A suite that fails in a hook fails its tests without counting them as failed.
    tests = { passed: j.numPassedTests, failed: j.numFailedTests || j.numFailedTestSuites };
  } catch {
    tests.failed = 1;
  }
  const figures =
    t.results && existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : undefined;
  const run = {
    name,
    what: t.what,
    env: t.env,
    date: new Date().toISOString(),
    command: `node stress/run.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    ok: r.status === 0,
    seconds,
    tests,
    resultsFile: relative(ROOT, resultsFile),
  };
  writeFileSync(join(RESULTS, `${name}.run.json`), `${JSON.stringify(run, null, 2)}\n`);
  runs.push({ ...run, figures });
}

// The report covers every target's latest run: this invocation's, and earlier ones' for the rest.
const latest = Object.keys(TARGETS).flatMap((name) => {
  const mine = runs.find((r) => r.name === name);
  if (mine) return [mine];
  const file = join(RESULTS, `${name}.run.json`);
  if (!existsSync(file)) return [];
  const run = JSON.parse(readFileSync(file, 'utf8'));
  const figuresFile = join(ROOT, run.resultsFile);
  const figures = existsSync(figuresFile) ? JSON.parse(readFileSync(figuresFile, 'utf8')) : undefined;
  return [{ ...run, figures }];
});
const report = renderReport(latest, { node: process.version });
writeFileSync(join(RESULTS, 'last-run.md'), report);
console.log(`\n${report}`);
console.log(`written: ${relative(ROOT, join(RESULTS, 'last-run.md'))}`);
process.exit(runs.every((r) => r.ok) ? 0 : 1);
