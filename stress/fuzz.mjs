#!/usr/bin/env node
// Full-size hostile-input run (`npm run stress:fuzz`): every fuzz/property target with
// FUZZ_RUNS cases (default 10^6), split over parallel processes with distinct seeds. The same
// tests run CI-sized in `npm test` (FUZZ_RUNS unset). Not part of `npm test`.
//
//   node stress/fuzz.mjs [--runs N] [--jobs J] [--only a,b] [--list] [--json FILE]
//
// C targets are the fuzz_* drivers built with ASan/UBSan in native-shims/build/fuzz-sanitize
// (FUZZ_C_BUILD=<dir> uses binaries built elsewhere); TS targets are vitest property files run
// through their workspace project. Prints one line per target and a summary table; exits 1 if
// any target failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.FUZZ_RUNS ?? '1000000' },
    jobs: { type: 'string', default: String(availableParallelism()) },
    only: { type: 'string' },
    list: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const JOBS = Math.max(1, Number(values.jobs));

/** name → how to run `runs` cases of it with one seed. */
const TARGETS = [
  { name: 'c/wire_header', c: ['fuzz_parsers', 'wire_header'] },
  { name: 'c/token_parse', c: ['fuzz_parsers', 'token_parse'] },
  { name: 'c/agent_frames', c: ['fuzz_agent', 'agent_frames'] },
  { name: 'c/hostile_agent', c: ['fuzz_initiator', 'hostile_agent'] },
  // one process: rdma-ffi's global setup rebuilds its dist/, which parallel runs would race on
  {
    name: 'ts/token (TS vs C)',
    vitest: ['rdma-ffi', 'packages/rdma-ffi/test/fuzz/token-vs-c.property.test.ts'],
    jobs: 1,
  },
  { name: 'ts/aws-chunked', vitest: ['gateway', 'packages/gateway/test/fuzz/aws-chunked.property.test.ts'] },
  { name: 'ts/sigv4', vitest: ['gateway', 'packages/gateway/test/fuzz/sigv4.property.test.ts'] },
  { name: 'ts/xml-bodies', vitest: ['gateway', 'packages/gateway/test/fuzz/xml-bodies.property.test.ts'] },
  {
    name: 'ts/range',
    vitest: ['backend-contract', 'packages/backend-contract/test/fuzz/range.property.test.ts'],
  },
  { name: 'ts/token', vitest: ['rdma-protocol', 'packages/rdma-protocol/test/fuzz/token.property.test.ts'] },
  {
    name: 'ts/rdma-headers',
    vitest: ['rdma-protocol', 'packages/rdma-protocol/test/fuzz/request-headers.property.test.ts'],
  },
];

if (values.list) {
  for (const t of TARGETS) console.log(t.name);
  process.exit(0);
}
const only = values.only?.split(',');
const selected = TARGETS.filter((t) => !only || only.some((o) => t.name.includes(o)));

function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

async function buildC() {
  if (process.env.FUZZ_C_BUILD) return process.env.FUZZ_C_BUILD;
  const dir = join(repo, 'native-shims/build/fuzz-sanitize');
  const cfg = [
    '-S',
    'native-shims',
    '-B',
    dir,
    '-DVGW_SHIMS_TESTS=ON',
    '-DVGW_SANITIZE=ON',
    '-DCMAKE_BUILD_TYPE=Debug',
  ];
  for (const args of [
    cfg,
    ['--build', dir, '--parallel', String(JOBS), '--target', 'fuzz_parsers', 'fuzz_agent', 'fuzz_initiator'],
  ]) {
    const r = await run('cmake', args, {});
    if (r.code !== 0) throw new Error(`cmake ${args.join(' ')} failed:\n${r.out.slice(-4000)}`);
  }
  return dir;
}

/** One process's share: C drivers take the count on argv and a seed from FUZZ_SEED. */
async function shareC(t, dir, runs, seed) {
  const [bin, name] = t.c;
  const r = await run(join(dir, bin), [name, String(runs)], {
    FUZZ_SEED: String(seed),
    ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0',
    UBSAN_OPTIONS: 'print_stacktrace=1',
  });
  return { ok: r.code === 0, cases: r.code === 0 ? runs : 0, log: r.out };
}

/** vitest: every property of the file runs `runs` cases (fast-check seeds differ per process). */
async function shareVitest(t, runs, tmp, i) {
  const [project, file] = t.vitest;
  const json = join(tmp, `${project}-${i}-${Date.now()}.json`);
  const r = await run(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      file,
      '--reporter=dot',
      '--reporter=json',
      `--outputFile.json=${json}`,
    ],
    { FUZZ_RUNS: String(runs) },
  );
  let report;
  try {
    report = JSON.parse(readFileSync(json, 'utf8'));
  } catch {
    return { ok: false, cases: 0, log: r.out };
  }
  const props = report.numTotalTests;
  const ok = r.code === 0 && report.numFailedTests === 0;
  return { ok, cases: ok ? runs : 0, props, log: r.out };
}

const tmp = mkdtempSync(join(tmpdir(), 'stress-fuzz-'));
const results = [];
let cdir;
for (const t of selected) {
  const jobs = Math.min(JOBS, t.jobs ?? JOBS);
  const share = Math.ceil(RUNS / jobs);
  const started = performance.now();
  if (t.c && cdir === undefined) cdir = await buildC();
  const shares = await Promise.all(
    Array.from({ length: jobs }, (_, i) =>
      t.c ? shareC(t, cdir, share, 0x5eed + i * 7919) : shareVitest(t, share, tmp, i),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const ok = shares.every((s) => s.ok);
  const cases = shares.reduce((n, s) => n + s.cases, 0);
  const props = shares[0]?.props ?? 1;
  const r = { target: t.name, ok, casesPerProperty: cases, properties: props, seconds: Math.round(seconds) };
  results.push(r);
  console.log(
    `${ok ? 'PASS' : 'FAIL'} ${t.name}: ${cases} cases${props > 1 ? ` × ${props} properties` : ''} in ${r.seconds} s (${jobs} processes)`,
  );
  if (!ok) for (const s of shares.filter((x) => !x.ok)) console.log(s.log.slice(-6000));
}

console.log('\n| target | cases (per property) | properties | seconds | result |\n|---|---|---|---|---|');
for (const r of results)
  console.log(
    `| ${r.target} | ${r.casesPerProperty} | ${r.properties} | ${r.seconds} | ${r.ok ? 'pass' : 'FAIL'} |`,
  );
if (values.json)
  writeFileSync(values.json, `${JSON.stringify({ runs: RUNS, jobs: JOBS, results }, null, 2)}\n`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
