// Runs the C tests of the shims (test/*.c), built with -fsanitize=address,undefined in their own
// build dir (build/test-sanitize). Each C binary is a group; each case it lists (`--list`)
// becomes one vitest test, so a failure names the case. Exit 77 from a case means "skipped",
// with the reason on its stdout.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const buildDir = `${root}build/test-sanitize`;
const SKIP_EXIT = 77;

function buildTests(): void {
  const run = (args: string[]) => execFileSync('cmake', args, { cwd: root, stdio: 'pipe' });
  run(['-S', '.', '-B', buildDir, '-DVGW_SHIMS_TESTS=ON', '-DVGW_SANITIZE=ON', '-DCMAKE_BUILD_TYPE=Debug']);
  run(['--build', buildDir, '--parallel']);
}

function testBinaries(): string[] {
  return readdirSync(buildDir)
    .filter((f) => /^(test|fuzz)_[a-z0-9_]+$/.test(f)) // fuzz_*: CI-sized runs unless FUZZ_RUNS is set
    .sort();
}

function listCases(binary: string): string[] {
  const out = execFileSync(`${buildDir}/${binary}`, ['--list'], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.length > 0);
}

buildTests();

for (const binary of testBinaries()) {
  describe(binary, () => {
    for (const name of listCases(binary)) {
      test(name, { timeout: 180_000 }, (ctx) => {
        const r = spawnSync(`${buildDir}/${binary}`, [name], {
          encoding: 'utf8',
          timeout: 170_000,
          // Leak checks stay on; the direct path uses process_vm_* which ASan does not mind.
          env: {
            ...process.env,
            ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0',
            UBSAN_OPTIONS: 'print_stacktrace=1',
          },
        });
        if (r.status === SKIP_EXIT) {
          ctx.skip(r.stdout.trim());
          return;
        }
        expect(r.status, `${binary} ${name} failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
      });
    }
  });
}
