// HAProxy (Debian's `haproxy`) in front of several gateways on loopback: the configuration is
// written here (haproxyConfig, also the one docs/deployment.md shows; test/haproxy.test.ts keeps
// the two the same), haproxy runs in the foreground on a free port and is stopped with the test
// file (tracked like every kit child). A stats socket in the run's temp directory answers which
// gateways haproxy has marked down.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { collectOutput, exitOf, type Output } from './child-output.js';
import { track } from './child-registry.js';
import { freePort } from './free-port.js';
import { makeTempDir, removeDir } from './temp-dir.js';

export { freePort };

/** The binary: HAPROXY_BIN, else Debian's path. */
export const HAPROXY_BIN = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';

/** undefined when haproxy can run here, else the reason to skip (names the program). */
export function haproxyUnavailable(): string | undefined {
  try {
    accessSync(HAPROXY_BIN, constants.X_OK);
    execFileSync(HAPROXY_BIN, ['-v'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return `${HAPROXY_BIN} is missing (Debian package haproxy: apt-get install haproxy)`;
  }
}

export interface HaproxyServer {
  readonly name: string;
  /** host:port of the gateway's S3 listener. */
  readonly address: string;
}

export interface HaproxyConfigOptions {
  /** host:port haproxy listens on. */
  readonly bind: string;
  readonly servers: readonly HaproxyServer[];
  /** The gateways' readiness path (their `--ready`); checked with a plain GET. */
  readonly checkPath: string;
  /** A stats socket (admin level) at this path; none when omitted. */
  readonly statsSocket?: string;
}

/**
 * The configuration: HTTP mode passing requests through unchanged, round robin, an active
 * readiness check every second (haproxy's plain `GET <path> HTTP/1.0` with no headers, allowed
 * longer than the gateway's own 2 s bound on its checks; down after 2 failures, up after 1
 * success) plus passive detection (a refused or reset connection marks the server down at
 * once), and retries that go to another gateway (redispatch) when a connection fails or a
 * gateway dies before answering. Client and server timeouts are inactivity timeouts, long enough for large bodies
 * and slow completions.
 */
export function haproxyConfig(o: HaproxyConfigOptions): string {
  const lines = [
    'global',
    '    maxconn 4096',
    ...(o.statsSocket ? [`    stats socket ${o.statsSocket} mode 600 level admin`] : []),
    '',
    'defaults',
    '    mode http',
    '    timeout connect 2s',
    '    timeout client 15m',
    '    timeout server 15m',
    '    timeout http-request 60s',
    '    timeout http-keep-alive 60s',
    '    timeout check 5s',
    '    retries 3',
    '    option redispatch 1',
    '    retry-on conn-failure empty-response',
    '',
    'frontend s3',
    `    bind ${o.bind}`,
    '    default_backend gateways',
    '',
    'backend gateways',
    '    balance roundrobin',
    '    option httpchk',
    `    http-check send meth GET uri ${o.checkPath}`,
    '    http-check expect status 200',
    '    default-server check inter 1s fall 2 rise 1 observe layer4 error-limit 1 on-error mark-down',
    ...o.servers.map((s) => `    server ${s.name} ${s.address}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The example docs/deployment.md shows: three gateway hosts, haproxy on port 7070. */
export const DOC_HAPROXY_EXAMPLE: HaproxyConfigOptions = {
  bind: ':7070',
  servers: [
    { name: 'gw1', address: '10.0.0.11:7070' },
    { name: 'gw2', address: '10.0.0.12:7070' },
    { name: 'gw3', address: '10.0.0.13:7070' },
  ],
  checkPath: '/ready',
};

export interface HaproxyOptions {
  readonly servers: readonly HaproxyServer[];
  /** Default /ready. */
  readonly checkPath?: string;
}

export interface Haproxy {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  readonly config: string;
  readonly child: ChildProcess;
  readonly output: Output;
  /** server name → haproxy's status (UP, DOWN, …), from the stats socket. */
  serverStatus(): Promise<Record<string, string>>;
  /** server name → every `show stat` column (counters such as hrsp_2xx, stot). */
  serverStats(): Promise<Record<string, Record<string, string>>>;
  /** serverStats once no server has a check in progress (checkInProgress), within boundMs. */
  settledStats(boundMs?: number): Promise<Record<string, Record<string, string>>>;
  /**
   * Polls until every named server has `status` (exactly, after at least one check), or throws
   * after timeoutMs with each server's last check and the end of haproxy's stderr.
   */
  waitFor(status: string, names: readonly string[], timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function unixRequest(path: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      text += d;
    });
    socket.once('error', reject);
    socket.once('end', () => resolve(text));
    socket.write(`${command}\n`);
  });
}

/** `show stat` CSV → server name → its columns (status, stot, hrsp_2xx, …), for the `gateways` backend. */
export function parseServerStats(csv: string): Record<string, Record<string, string>> {
  const [header = '', ...rows] = csv.replace(/^# /, '').trim().split('\n');
  const cols = header.split(',');
  const out: Record<string, Record<string, string>> = {};
  for (const row of rows) {
    const f = row.split(',');
    const fields = Object.fromEntries(cols.map((c, i) => [c, f[i] ?? '']));
    const name = fields.svname ?? '';
    if (fields.pxname === 'gateways' && name !== 'BACKEND' && name !== 'FRONTEND') out[name] = fields;
  }
  return out;
}

/** `show stat` CSV → server name → status. */
export function parseServerStatus(csv: string): Record<string, string> {
  return Object.fromEntries(Object.entries(parseServerStats(csv)).map(([n, f]) => [n, f.status ?? '']));
}

/** The `show stat` columns that say what the last health check of a server saw. */
const CHECK_COLUMNS = [
  'status',
  'check_status',
  'check_code',
  'check_desc',
  'check_duration',
  'last_chk',
  'chkfail',
  'chkdown',
  'lastchg',
] as const;

/** Each server's status and last check, for an error message. */
function describeChecks(stats: Record<string, Record<string, string>>): string {
  const one = ([name, f]: [string, Record<string, string>]) =>
    `${name} ${CHECK_COLUMNS.map((c) => `${c}=${f[c] || '-'}`).join(' ')}`;
  return Object.entries(stats).map(one).join(' | ') || '(no servers)';
}

/**
 * haproxy prefixes check_status with `* ` while a check is running (`* L7OK`: the last result
 * was L7OK and a new check is under way), so the row describes a moment, not a result.
 */
export function checkInProgress(fields: Record<string, string> | undefined): boolean {
  return (fields?.check_status ?? '').startsWith('* ');
}

/**
 * A server is in `status` once haproxy says exactly that, a check has run and none is running:
 * a server starts as `UP` with check status INI (no check yet), `UP 1/2` / `DOWN 1/2` are
 * transitions and `* L7OK` is a check in progress.
 */
export function settled(fields: Record<string, string> | undefined, status: string): boolean {
  return (
    fields?.status === status &&
    fields.check_status !== 'INI' &&
    fields.check_status !== '' &&
    !checkInProgress(fields)
  );
}

/** The last lines of a text, for an error message. */
function tail(text: string, lines = 12): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n') || '(empty)';
}

/** Starts haproxy in front of `servers` and waits until its port accepts connections. */
export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  const dir = await makeTempDir('vgwrdma-haproxy-');
  const statsSocket = join(dir, 'admin.sock');
  const port = await freePort();
  const config = haproxyConfig({
    bind: `127.0.0.1:${port}`,
    servers: options.servers,
    checkPath: options.checkPath ?? '/ready',
    statsSocket,
  });
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  // -db: stay in the foreground; -W off (no master process), so the pid is haproxy itself.
  const child = track(spawn(HAPROXY_BIN, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const output = collectOutput(child);
  const exited = exitOf(child);
  const serverStatus = async () => parseServerStatus(await unixRequest(statsSocket, 'show stat'));
  const serverStats = async () => parseServerStats(await unixRequest(statsSocket, 'show stat'));
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited at start: ${output.stderr()}`);
    const up = await serverStatus().then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > until) throw new Error(`haproxy did not start in 10 s: ${output.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // Each server's latest row with no check running (each check is bounded by `timeout check`),
  // so a failed wait reports results, not a check caught half-way. Servers are taken one by one:
  // with checks every second on several servers, a moment with none running at all can be rare
  // on a loaded machine. A server still mid-check at the bound keeps its last row.
  const settledStats = async (boundMs = 10_000) => {
    const end = Date.now() + boundMs;
    const rows: Record<string, Record<string, string>> = {};
    const done = new Set<string>();
    for (;;) {
      const now = await serverStats();
      for (const [name, fields] of Object.entries(now)) {
        if (done.has(name)) continue;
        rows[name] = fields;
        if (!checkInProgress(fields)) done.add(name);
      }
      if (Object.keys(now).every((n) => done.has(n)) || Date.now() > end) return rows;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const waitFor = async (status: string, names: readonly string[], timeoutMs = 30_000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const now = await serverStats();
      if (names.every((n) => settled(now[n], status))) return;
      if (Date.now() > end)
        throw new Error(
          `haproxy: ${names.join(', ')} not ${status} in ${timeoutMs} ms: ${describeChecks(await settledStats())}; ` +
            `haproxy's stderr ends: ${tail(output.stderr())}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    config,
    child,
    output,
    serverStatus,
    serverStats,
    settledStats,
    waitFor,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await removeDir(dir);
    },
  };
}
