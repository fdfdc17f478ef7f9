// The supervisor of the test fixture's Ceph cluster (ceph-rgw-start.ts starts it, detached, before
// the cluster itself): it outlives the test worker that started the cluster, so every worker and
// test file of the run shares one cluster.
//
//   node ceph-rgw-supervisor.mjs '{"dir": "...", "owner": <pid>}'
//
// - radosgw runs under a restart loop (radosgw 16.2 aborts on a few requests; the next request
//   finds it back within seconds), started once <dir>/osd-up exists; its pid is in <dir>/run/radosgw.pid.
// - Teardown, when the owner (the vitest run's main process) is gone or on SIGTERM / SIGINT:
//   SIGKILL radosgw (it hangs on SIGTERM once the mon is gone), SIGTERM the OSD and the mon (their
//   pid files in <dir>/run), SIGKILL what is still alive after 5 s, remove <dir>, exit 0.
//
// Plain node with no imports outside node: itself, so it runs from src/ as it is.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const { dir, owner } = JSON.parse(process.argv[2] ?? '{}');
if (typeof dir !== 'string' || !Number.isInteger(owner)) {
  process.stderr.write('ceph-rgw-supervisor: needs {"dir": string, "owner": pid}\n');
  process.exit(2);
}
const conf = join(dir, 'ceph.conf');
const runDir = join(dir, 'run');
const restartsLog = join(dir, 'log', 'rgw-restarts.log');
const MAX_STARTS = 200;

let stopping = false;
let rgw;
let starts = 0;

function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z'; // a zombie is gone
  } catch {
    return false;
  }
}

function note(line) {
  appendFileSync(restartsLog, `${new Date().toISOString()} ${line}\n`);
}

function startRgw() {
  if (stopping || starts >= MAX_STARTS) return;
  starts += 1;
  const began = Date.now();
  const out = openSync(join(dir, 'log', 'rgw.stdout'), 'a');
  rgw = spawn('radosgw', ['-c', conf, '-n', 'client.rgw.a', '-f'], { stdio: ['ignore', out, out] });
  writeFileSync(join(runDir, 'radosgw.pid'), `${rgw.pid}\n`);
  note(`start ${rgw.pid}`);
  rgw.once('exit', (code, signal) => {
    note(`exit ${code ?? signal}`);
    rgw = undefined;
    // back off when it dies at once (its port taken, the mon not answering yet)
    setTimeout(startRgw, Date.now() - began < 5000 ? 5000 : 500);
  });
}

function daemonPids() {
  const pids = [];
  for (const name of readdirSync(runDir)) {
    if (!name.endsWith('.pid') || name === 'radosgw.pid') continue;
    const pid = Number.parseInt(readFileSync(join(runDir, name), 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 0) pids.push(pid);
  }
  return pids;
}

async function teardown() {
  if (stopping) return;
  stopping = true;
  rgw?.kill('SIGKILL');
  const pids = existsSync(runDir) ? daemonPids() : [];
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 5000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  while (rgw) await new Promise((r) => setTimeout(r, 50));
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

process.on('SIGTERM', teardown);
process.on('SIGINT', teardown);
setInterval(() => {
  if (!alive(owner)) void teardown();
  else if (!rgw && starts === 0 && existsSync(join(dir, 'osd-up'))) startRgw();
}, 250);
