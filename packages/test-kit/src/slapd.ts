// A throw-away OpenLDAP server for the LDAP IAM tests: Debian's slapd with an mdb database in a
// temp dir, configured by a slapd.conf (-f; no debconf, no cn=config), a root DN, the standard
// core/cosine/inetorgperson/nis schemas, plain LDAP and LDAPS (certificate from makeTestCa) on
// loopback ports. The base entries are loaded offline with slapadd before slapd starts.
// One slapd serves a whole vitest run: the project's globalSetup starts it and leaves its
// description in VGW_TEST_SLAPD (a JSON file); sharedSlapd() reads it, and starts one for this
// process only when no globalSetup did (a file run on its own).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { track } from './child-registry.js';
import { freePort } from './free-port.js';
import { makeTempDir, removeDir } from './temp-dir.js';
import { makeTestCa } from './tls-certs.js';

const run = promisify(execFile);

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';
const MODULE_DIR = '/usr/lib/ldap';
const SCHEMA_DIR = '/etc/ldap/schema';
const SCHEMAS = ['core', 'cosine', 'inetorgperson', 'nis'];

export interface Slapd {
  /** ldap://127.0.0.1:<port> */
  readonly url: string;
  /** ldaps://127.0.0.1:<port>, certificate for 127.0.0.1 signed by `caFile`. */
  readonly ldapsUrl: string;
  readonly caFile: string;
  readonly rootDn: string;
  readonly rootPassword: string;
  /** dc=vgwrdma,dc=test */
  readonly suffix: string;
  /** An empty organizationalUnit under the suffix, for tests to put their own ou under. */
  readonly testBase: string;
  readonly pid: number;
}

export interface OwnedSlapd extends Slapd {
  stop(): Promise<void>;
}

/** undefined when this machine can run slapd, else the reason to skip (names what is missing). */
export function slapdUnavailable(): string | undefined {
  for (const [file, what] of [
    [SLAPD, 'slapd (Debian package slapd)'],
    [SLAPADD, 'slapadd (Debian package slapd)'],
    [join(MODULE_DIR, 'back_mdb.so'), 'the mdb backend module (Debian package slapd)'],
    [join(SCHEMA_DIR, 'core.schema'), 'the OpenLDAP schemas (Debian package slapd)'],
  ] as const)
    if (!existsSync(file)) return `${what} is not installed: ${file} is missing`;
  return undefined;
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = createConnection({ port, host: '127.0.0.1' }, () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`slapd did not listen on 127.0.0.1:${port} within 15 s:\n${log()}`);
}

export async function startSlapd(): Promise<OwnedSlapd> {
  const missing = slapdUnavailable();
  if (missing !== undefined) throw new Error(missing);
  const dir = await makeTempDir('vgwrdma-slapd-');
  const db = join(dir, 'db');
  await mkdir(db);
  const ca = await makeTestCa(dir);
  const cert = await ca.issue('slapd');
  const suffix = 'dc=vgwrdma,dc=test';
  const rootDn = `cn=admin,${suffix}`;
  const rootPassword = `root-${Math.random().toString(36).slice(2)}`;
  const conf = join(dir, 'slapd.conf');
  await writeFile(
    conf,
    [
      ...SCHEMAS.map((s) => `include ${join(SCHEMA_DIR, `${s}.schema`)}`),
      `pidfile ${join(dir, 'slapd.pid')}`,
      `modulepath ${MODULE_DIR}`,
      'moduleload back_mdb',
      `TLSCACertificateFile ${ca.caFile}`,
      `TLSCertificateFile ${cert.certFile}`,
      `TLSCertificateKeyFile ${cert.keyFile}`,
      'database mdb',
      `suffix "${suffix}"`,
      `rootdn "${rootDn}"`,
      `rootpw ${rootPassword}`,
      `directory ${db}`,
      'maxsize 67108864',
      '',
    ].join('\n'),
  );
  const ldif = join(dir, 'base.ldif');
  await writeFile(
    ldif,
    [
      `dn: ${suffix}`,
      'objectClass: dcObject',
      'objectClass: organization',
      'dc: vgwrdma',
      'o: vgwrdma tests',
      '',
      `dn: ou=tests,${suffix}`,
      'objectClass: organizationalUnit',
      'ou: tests',
      '',
    ].join('\n'),
  );
  await run(SLAPADD, ['-f', conf, '-l', ldif]);
  const [port, tlsPort] = [await freePort(), await freePort()];
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = `ldaps://127.0.0.1:${tlsPort}`;
  // -d 0: stay in the foreground (so the child is slapd itself) without debug output.
  const child = track(
    spawn(SLAPD, ['-f', conf, '-h', `${url}/ ${ldapsUrl}/`, '-d', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let log = '';
  child.stdout?.on('data', (b: Buffer) => (log += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (log += b.toString()));
  try {
    await waitForPort(port, child, () => log);
    await waitForPort(tlsPort, child, () => log);
  } catch (err) {
    child.kill('SIGKILL');
    await removeDir(dir);
    throw err;
  }
  return {
    url,
    ldapsUrl,
    caFile: ca.caFile,
    rootDn,
    rootPassword,
    suffix,
    testBase: `ou=tests,${suffix}`,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await removeDir(dir);
    },
  };
}

/** The environment variable naming the shared slapd's description (a JSON file). */
export const SLAPD_ENV = 'VGW_TEST_SLAPD';

let own: Promise<OwnedSlapd> | undefined;

/** The run's one slapd (see the header); only call when slapdUnavailable() is undefined. */
export async function sharedSlapd(): Promise<Slapd> {
  const file = process.env[SLAPD_ENV];
  if (file !== undefined && file !== '') return JSON.parse(readFileSync(file, 'utf8')) as Slapd;
  // Tracked by the child registry: killed when this process exits.
  own ??= startSlapd();
  return own;
}

/** For a vitest globalSetup: starts the shared slapd, returns the teardown (no-op when unavailable). */
export async function setupSharedSlapd(): Promise<() => Promise<void>> {
  if (slapdUnavailable() !== undefined || process.env[SLAPD_ENV]) return async () => {};
  const s = await startSlapd();
  const file = join(s.caFile, '..', 'slapd.json');
  const { stop, ...description } = s;
  await writeFile(file, JSON.stringify(description));
  process.env[SLAPD_ENV] = file;
  return async () => {
    delete process.env[SLAPD_ENV];
    await stop();
  };
}
