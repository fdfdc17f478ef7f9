// Runs every test once with vitest (all workspace projects) and ends with the one line CI reads:
// `N passed, N failed`, taken from vitest's JSON report rather than its human summary.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const outDir = join(process.cwd(), '.ci', 'out');
const report = join(outDir, 'vitest.json');
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
    ...process.argv.slice(2),
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
