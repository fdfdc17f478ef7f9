// Keeps the test run's one Azurite: started by the first test file that needs it (azurite.ts),
// detached from that worker so every file and worker of the run shares it, and stopped when the
// vitest process that owns the run (argv[2]) is gone. Writes <dir>/state.json once Azurite
// listens; <dir>/error.txt when it cannot start.
//   node azurite-keeper.mjs <owner pid> <dir> <azurite-blob path>
import { spawn } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [owner, dir, bin] = process.argv.slice(2);
const child = spawn(
  bin,
  [
    '--blobHost',
    '127.0.0.1',
    '--blobPort',
    '0',
    '--inMemoryPersistence',
    '--extentMemoryLimit',
    '2048',
    '--skipApiVersionCheck',
    '--loose',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let out = '';
const onData = (chunk) => {
  out += chunk.toString();
  const m = /successfully listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
  if (m) {
    // Written under a temp name and renamed, so a reader never sees half a file.
    writeFileSync(join(dir, 'state.tmp'), JSON.stringify({ port: Number(m[1]), pid: child.pid }));
    renameSync(join(dir, 'state.tmp'), join(dir, 'state.json'));
    child.stdout.off('data', onData);
    child.stderr.off('data', onData);
    child.stdout.resume();
    child.stderr.resume();
  }
};
child.stdout.on('data', onData);
child.stderr.on('data', onData);
child.on('exit', (code) => {
  writeFileSync(join(dir, 'error.txt'), `azurite exited (${code}): ${out.slice(-2000)}`);
  process.exit(0);
});

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
setInterval(() => {
  if (alive(Number(owner))) return;
  child.removeAllListeners('exit');
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}, 1000);
