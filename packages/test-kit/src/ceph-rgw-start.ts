// Brings up the fixture's single-node Ceph in a directory of its own: the supervisor first (so a
// bring-up cut short is still torn down when the run ends), then one mon and one memstore OSD
// (daemons, pid files under <dir>/run), then radosgw under the supervisor's restart loop, then the
// two users. Resolves with the state it also writes to <dir>/state.json.
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createRgwUser } from './ceph-rgw-admin.js';
import { cephConf } from './ceph-rgw-conf.js';
import { isAlive, type RgwState, writeRgwState } from './ceph-rgw-state.js';

const execFileP = promisify(execFile);

export const CEPH_RGW_SUPERVISOR = fileURLToPath(new URL('../src/ceph-rgw-supervisor.mjs', import.meta.url));

export interface StartedCephRgw {
  state: RgwState;
  supervisor: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port for the Ceph fixture');
  return address.port;
}

/** Runs a program that may daemonize (so it waits for the exit, not for stdio to close). */
async function runStep(dir: string, program: string, args: string[]): Promise<void> {
  const errFile = join(dir, 'log', `${program}.out`);
  const fd = openSync(errFile, 'a');
  try {
    const child = spawn(program, args, { stdio: ['ignore', fd, fd] });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (c) => resolve(c));
    });
    if (code !== 0) {
      const tail = readFileSync(errFile, 'utf8').split('\n').slice(-8).join('\n');
      throw new Error(`${program} ${args.join(' ')} exited ${code}:\n${tail}`);
    }
  } finally {
    closeSync(fd);
  }
}

async function ceph(conf: string, args: string[]): Promise<string> {
  const { stdout } = await execFileP('ceph', ['-c', conf, '--connect-timeout', '30', ...args], {
    timeout: 60_000,
  });
  return stdout.trim();
}

async function until(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Ceph fixture: ${what} not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

function startSupervisor(dir: string, owner: number): number {
  const out = openSync(join(dir, 'log', 'supervisor.log'), 'a');
  const child = spawn(process.execPath, [CEPH_RGW_SUPERVISOR, JSON.stringify({ dir, owner })], {
    detached: true,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  child.unref();
  if (child.pid === undefined) throw new Error('Ceph fixture: the supervisor did not start');
  writeFileSync(join(dir, 'supervisor.pid'), `${child.pid}\n`);
  return child.pid;
}

/** `dir` must exist and be empty; `owner` is the process whose end tears the cluster down. */
export async function startCephRgw(dir: string, owner: number): Promise<StartedCephRgw> {
  for (const sub of ['mon.a', 'osd.0', 'run', 'log']) mkdirSync(join(dir, sub), { recursive: true });
  const monPort = await freePort();
  let rgwPort = await freePort();
  while (rgwPort === monPort) rgwPort = await freePort();
  const conf = join(dir, 'ceph.conf');
  const fsid = randomUUID();
  writeFileSync(conf, cephConf({ dir, fsid, monPort, rgwPort }));
  const supervisor = startSupervisor(dir, owner);

  const monmap = join(dir, 'monmap');
  await runStep(dir, 'monmaptool', [
    '--create',
    '--fsid',
    fsid,
    '--addv',
    'a',
    `[v2:127.0.0.1:${monPort}]`,
    monmap,
  ]);
  await runStep(dir, 'ceph-mon', ['-c', conf, '--mkfs', '-i', 'a', '--monmap', monmap]);
  await runStep(dir, 'ceph-mon', ['-c', conf, '-i', 'a']);
  const osdUuid = randomUUID();
  const id = await ceph(conf, ['osd', 'new', osdUuid]);
  await runStep(dir, 'ceph-osd', ['-c', conf, '-i', id, '--mkfs', '--osd-uuid', osdUuid]);
  await runStep(dir, 'ceph-osd', ['-c', conf, '-i', id]);
  await until('the OSD up', 60_000, async () => /\b1 up\b/.test(await ceph(conf, ['osd', 'stat'])));
  writeFileSync(join(dir, 'osd-up'), '');

  const endpoint = `http://127.0.0.1:${rgwPort}`;
  await until(`radosgw answering on ${endpoint}`, 90_000, async () => {
    if (!isAlive(supervisor)) throw new Error('supervisor gone');
    await fetch(endpoint, { signal: AbortSignal.timeout(2000) });
    return true;
  });
  const [main, alt] = await Promise.all([createRgwUser(conf, 'vgw-main'), createRgwUser(conf, 'vgw-alt')]);
  const run = join(dir, 'run');
  const state: RgwState = {
    endpoint,
    region: 'us-east-1',
    conf,
    users: { main, alt },
    pidFiles: [join(run, 'radosgw.pid'), join(run, `osd.${id}.pid`), join(run, 'mon.a.pid')],
    supervisor,
  };
  writeRgwState(join(dir, 'state.json'), state);
  return { state, supervisor };
}

/** SIGTERM to the supervisor (it kills radosgw, the OSD and the mon, removes the directory), then waits for it. */
export async function stopCephRgw(supervisor: number, timeoutMs = 20_000): Promise<void> {
  if (!isAlive(supervisor)) return;
  process.kill(supervisor, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (isAlive(supervisor)) {
    if (Date.now() > deadline)
      throw new Error(`Ceph fixture: supervisor ${supervisor} still running after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
