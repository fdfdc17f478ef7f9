// Runs the tests once with vitest (all workspace projects) and ends with the one line CI reads:
// `N passed, N failed`, taken from vitest's JSON report rather than its human summary.
//   node scripts/test.mjs            every test
//   node scripts/test.mjs --unit     all but the end-to-end tests (files named *.e2e.test.ts)
//   node scripts/test.mjs --e2e      only the end-to-end tests
// Other arguments go to vitest as they are (file filters, --project <name>).
// The builds the tests load (shims, every dist/) are made before this runs (scripts/run.sh test).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The end-to-end tests start real processes (the built app, gateway children, the CLIs). */
const E2E_FILES = '.e2e.test.ts';
const SELECTIONS = {
  '--unit': { report: 'vitest-unit.json', args: ['--exclude', `**/*${E2E_FILES}`] },
  '--e2e': { report: 'vitest-e2e.json', args: [E2E_FILES] },
};

const args = process.argv.slice(2);
const picked = Object.keys(SELECTIONS).filter((flag) => args.includes(flag));
if (picked.length > 1) {
  console.error(`use one of ${Object.keys(SELECTIONS).join(', ')}, not both`);
  process.exit(2);
}
const selection = picked[0] === undefined ? undefined : SELECTIONS[picked[0]];
const passThrough = args.filter((a) => !(a in SELECTIONS));

const outDir = join(process.cwd(), '.ci', 'out');
const report = join(outDir, selection?.report ?? 'vitest.json');
mkdirSync(outDir, { recursive: true });
rmSync(report, { force: true });

const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...(selection ? ['--passWithNoTests', ...selection.args] : []),
    ...passThrough,
  ],
  { stdio: 'inherit' },
);

if (!existsSync(report)) {
  console.error('vitest wrote no JSON report');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const r = JSON.parse(readFileSync(report, 'utf8'));
const failed = r.numFailedTests + countFilesFailedWithoutTests(r);
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(`${r.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(run.status === 0 && failed === 0 && r.numPassedTests > 0 ? 0 : 1);

// A file that fails to load (or whose hooks fail) is failed with no failed test in it: count it
// once. numFailedTestSuites is not used: it also counts the describe blocks of failed tests.
function countFilesFailedWithoutTests(rep) {
  return (rep.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
}
