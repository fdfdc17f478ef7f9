// The C tests cross-compiled for linux-arm64 (Debian gcc- and g++-aarch64-linux-gnu) and run under
// qemu-user, each case one vitest test as in c-tests.test.ts. No sanitizers: ASan's shadow memory
// does not fit under qemu-user. Skipped, saying why, where the cross compiler or qemu is missing.
//
// qemu-user runs a guest process at addresses the host kernel does not see as the guest's, so
// softnic's direct path (process_vm_readv/writev between gateway and client, proven through
// /proc/<pid>/mem) cannot be proven under emulation: the proof is refused and the transfer goes
// over TCP, which is the path these cases do not test. They are listed, with that reason, and
// skipped; every other case must pass.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const buildDir = `${root}build/test-arm64`;
const SYSROOT = '/usr/aarch64-linux-gnu';
const SKIP_EXIT = 77;
const DIRECT = 'needs the softnic direct path (process_vm_*), which qemu-user cannot prove';
const EMULATION_LIMITS: Record<string, string> = {
  'test_abi ceiling_probes_run': 'process_vm_writev ceiling probe: qemu-user guest addresses',
  'test_channels sixteen_sync_threads_direct': DIRECT,
  'test_cuda_client round_trip_direct': DIRECT,
  'test_direct_guard setuid_exec_after_proof_put': `${DIRECT}; setuid exec under qemu-user`,
  'test_direct_guard setuid_exec_after_proof_get': `${DIRECT}; setuid exec under qemu-user`,
  'test_direct_guard setuid_exec_without_opt_in': `${DIRECT}; setuid exec under qemu-user`,
  'test_direct_guard same_uid_exec_after_proof_put': DIRECT,
  'test_direct_guard same_uid_exec_after_proof_get': DIRECT,
  'test_direct_guard unprivileged_same_uid_direct': DIRECT,
  'test_progress direct_progressive_upload': DIRECT,
  'test_protocol agent_withdraws_direct': DIRECT,
  'test_transfer direct_random_sizes_offsets': DIRECT,
};

function missing(): string {
  for (const tool of ['aarch64-linux-gnu-gcc', 'aarch64-linux-gnu-g++', 'qemu-aarch64', 'cmake']) {
    if (spawnSync(tool, ['--version'], { stdio: 'ignore' }).status !== 0)
      return `${tool} not installed (Debian: gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user cmake)`;
  }
  return '';
}

const why = missing();
const qemu = (binary: string, args: string[], timeout = 170_000) =>
  spawnSync('qemu-aarch64', ['-L', SYSROOT, `${buildDir}/${binary}`, ...args], { encoding: 'utf8', timeout });

function buildTests(): string[] {
  const run = (args: string[]) => execFileSync('cmake', args, { cwd: root, stdio: 'pipe' });
  run([
    '-S',
    '.',
    '-B',
    buildDir,
    '-DVGW_SHIMS_TESTS=ON',
    '-DCMAKE_BUILD_TYPE=Debug',
    '-DCMAKE_TOOLCHAIN_FILE=cmake/linux-arm64.toolchain.cmake',
  ]);
  run(['--build', buildDir, '--parallel']);
  const list = execFileSync('ls', [buildDir], { encoding: 'utf8' });
  return list
    .split('\n')
    .filter((f) => /^(test|fuzz)_[a-z0-9_]+$/.test(f))
    .sort();
}

describe.skipIf(why !== '')(`C tests on linux-arm64 under qemu-user${why ? ` (${why})` : ''}`, () => {
  const binaries = why === '' ? buildTests() : [];
  for (const binary of binaries) {
    const cases = qemu(binary, ['--list'])
      .stdout.split('\n')
      .filter((l) => l.length > 0);
    describe(binary, () => {
      for (const name of cases) {
        const limit = EMULATION_LIMITS[`${binary} ${name}`];
        test.skipIf(limit !== undefined)(limit ? `${name} (${limit})` : name, { timeout: 180_000 }, (ctx) => {
          const r = qemu(binary, [name]);
          if (r.status === SKIP_EXIT) {
            ctx.skip(r.stdout.trim());
            return;
          }
          expect(r.status, `${binary} ${name} failed under qemu:\n${r.stdout}\n${r.stderr}`).toBe(0);
        });
      }
    });
  }
});
