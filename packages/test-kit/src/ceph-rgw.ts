// The Ceph RGW of a vitest run: one single-node cluster (ceph-rgw-start.ts), started by the first
// test that asks for it and shared by every test file and worker of the run. The first caller
// creates the run's directory (<tmp>/vgw-rgw-<pid of the vitest main process>; mkdir is the lock)
// and starts the cluster; every other caller waits for its state.json. The cluster's supervisor
// tears it down when the vitest process ends (or at stopSharedCephRgw from a globalSetup teardown).
// VGW_TEST_RGW=<state.json> uses a cluster already running instead, and never stops it.
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { createRgwUser, type RgwUser } from './ceph-rgw-admin.js';
import { startCephRgw, stopCephRgw } from './ceph-rgw-start.js';
import { isAlive, livePids, type RgwState, readRgwState } from './ceph-rgw-state.js';
import { s3Client } from './s3-client.js';

export type { RgwUser } from './ceph-rgw-admin.js';

export interface CephRgw {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  /** 'us-east-1' */
  region: string;
  /** Two users (for cross-account cases). */
  main: RgwUser;
  alt: RgwUser;
  /** radosgw, ceph-osd, ceph-mon (for /proc CPU accounting); the live ones. */
  pids(): number[];
  createUser(uid: string): Promise<RgwUser>;
}

/** What the fixture runs; Debian packs them in radosgw, ceph-mon, ceph-osd (and ceph-common). */
const PROGRAMS = ['radosgw', 'radosgw-admin', 'ceph-mon', 'ceph-osd', 'monmaptool', 'ceph'] as const;
const READY_TIMEOUT_MS = 180_000;

function onPath(program: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {}
  }
  return false;
}

/** undefined when this machine can run Ceph RGW, else the reason to skip (names the missing program). */
export function cephRgwUnavailable(): string | undefined {
  const given = process.env.VGW_TEST_RGW;
  if (given) return existsSync(given) ? undefined : `VGW_TEST_RGW=${given}: no such state file`;
  if (process.platform !== 'linux')
    return `Ceph RGW fixture runs on Linux only (this is ${process.platform})`;
  const missing = PROGRAMS.filter((p) => !onPath(p));
  if (missing.length > 0) {
    return `Ceph RGW fixture needs ${missing.join(', ')} on PATH (Debian: apt-get install radosgw ceph-mon ceph-osd)`;
  }
  return undefined;
}

function fromState(state: RgwState): CephRgw {
  return {
    endpoint: state.endpoint,
    region: state.region,
    main: state.users.main,
    alt: state.users.alt,
    pids: () => livePids(state.pidFiles),
    createUser: (uid) => createRgwUser(state.conf, uid),
  };
}

/** The vitest run's main process: a forks-pool worker's parent, else this process itself. */
function runOwner(): number {
  return process.send === undefined ? process.pid : process.ppid;
}

/** The run's directory: the cluster, its logs, supervisor.pid and (once ready) state.json. */
export function sharedCephRgwDir(owner = runOwner()): string {
  return join(tmpdir(), `vgw-rgw-${owner}`);
}

async function waitForState(dir: string): Promise<RgwState> {
  const stateFile = join(dir, 'state.json');
  const errorFile = join(dir, 'error');
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (existsSync(errorFile))
      throw new Error(`shared Ceph RGW failed to start: ${readFileSync(errorFile, 'utf8')}`);
    if (existsSync(stateFile)) {
      const state = readRgwState(stateFile);
      if (state.supervisor !== undefined && !isAlive(state.supervisor)) {
        throw new Error(`shared Ceph RGW in ${dir} is stale (its supervisor is gone): remove the directory`);
      }
      return state;
    }
    if (Date.now() > deadline)
      throw new Error(`shared Ceph RGW in ${dir} not ready within ${READY_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function startOrJoin(): Promise<RgwState> {
  const given = process.env.VGW_TEST_RGW;
  if (given) return readRgwState(given);
  const reason = cephRgwUnavailable();
  if (reason) throw new Error(reason);
  const dir = sharedCephRgwDir();
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return waitForState(dir);
  }
  try {
    return (await startCephRgw(dir, runOwner())).state;
  } catch (error) {
    writeFileSync(join(dir, 'error'), String((error as Error).message));
    throw error;
  }
}

let shared: Promise<CephRgw> | undefined;

/**
 * The run's one RGW: started on first use (~20 s), shared by every test file and worker of this
 * vitest run, stopped when the run ends. VGW_TEST_RGW=<state.json> points it at an RGW already
 * running (such as /tmp/dev-rgw/state.json) instead.
 */
export function sharedCephRgw(): Promise<CephRgw> {
  shared ??= startOrJoin().then(fromState);
  return shared;
}

/** For a globalSetup's teardown (the vitest main process): stops the run's cluster if one was started. */
export async function stopSharedCephRgw(): Promise<void> {
  if (process.env.VGW_TEST_RGW) return;
  const file = join(sharedCephRgwDir(process.pid), 'supervisor.pid');
  if (!existsSync(file)) return;
  await stopCephRgw(Number.parseInt(readFileSync(file, 'utf8'), 10));
}

/** A cluster of its own, owned by `owner` (default this process), for the fixture's own tests. */
export async function startPrivateCephRgw(
  dir: string,
  owner = process.pid,
): Promise<{ rgw: CephRgw; supervisor: number; stop(): Promise<void> }> {
  const supervisorFile = join(dir, 'supervisor.pid');
  let started: Awaited<ReturnType<typeof startCephRgw>>;
  try {
    started = await startCephRgw(dir, owner);
  } catch (error) {
    if (existsSync(supervisorFile))
      await stopCephRgw(Number.parseInt(readFileSync(supervisorFile, 'utf8'), 10));
    throw error;
  }
  const { state, supervisor } = started;
  return { rgw: fromState(state), supervisor, stop: () => stopCephRgw(supervisor) };
}

/** A path-style SDK client straight to the RGW as `user` (default the main user). */
export function rgwClient(
  rgw: CephRgw,
  user: RgwUser = rgw.main,
  extra: Partial<S3ClientConfig> = {},
): S3Client {
  return s3Client(
    rgw.endpoint,
    { access: user.accessKeyId, secret: user.secretAccessKey },
    { region: rgw.region, ...extra },
  );
}
