// What /proc says about a process: open fds (by kind), RSS, threads. The fault tests compare a
// gateway's counts before and after a failure (a leaked socket or file shows up here), and the
// load test samples RSS over time.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface FdCounts {
  readonly total: number;
  readonly sockets: number;
  readonly files: number;
}

/** Open fds of `pid`, split into sockets and the rest. */
export function fdCounts(pid: number): FdCounts {
  let sockets = 0;
  let total = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target = '';
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed while we looked
    }
    total++;
    if (target.startsWith('socket:')) sockets++;
  }
  return { total, sockets, files: total - sockets };
}

const TCP_STATES: Readonly<Record<string, string>> = {
  '01': 'ESTABLISHED',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '0A': 'LISTEN',
};

/** socket inode -> `local -> remote STATE` from /proc/<pid>/net/tcp (IPv4). */
export function tcpSockets(pid: number): Map<string, string> {
  const out = new Map<string, string>();
  const port = (hexAddr: string) => {
    const [ip = '', p = '0'] = hexAddr.split(':');
    const octets = (ip.match(/../g) ?? []).reverse().map((h) => Number.parseInt(h, 16));
    return `${octets.join('.')}:${Number.parseInt(p, 16)}`;
  };
  for (const line of readFileSync(`/proc/${pid}/net/tcp`, 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || !f[1] || !f[2] || !f[3] || !f[9]) continue;
    out.set(f[9], `${port(f[1])} -> ${port(f[2])} ${TCP_STATES[f[3]] ?? f[3]}`);
  }
  return out;
}

/** `fd -> target` of every open fd, TCP sockets with their ends (for messages when a count is off). */
export function fdTargets(pid: number): string[] {
  const out: string[] = [];
  const tcp = tcpSockets(pid);
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      out.push(`${fd} -> ${target}${inode && tcp.has(inode) ? ` ${tcp.get(inode)}` : ''}`);
    } catch {
      // closed while we looked
    }
  }
  return out;
}

/** Paths of the regular files `pid` has open under `dir`. */
export function openFilesUnder(pid: number, dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith(dir)) out.push(target);
    } catch {
      // closed while we looked
    }
  }
  return out;
}

function statusField(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m?.[1]) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]);
}

/** Resident set size in bytes. */
export function rssBytes(pid: number): number {
  return statusField(pid, 'VmRSS') * 1024;
}

export function threadCount(pid: number): number {
  return statusField(pid, 'Threads');
}

/**
 * Open fds of a server `pid` that are not its accepted HTTP connections on `httpPort` (how many
 * keep-alive connections a client holds is the client's business): files, pipes, eventfds,
 * listening and outgoing sockets. A leak of any of those shows up here.
 */
export function serverFds(pid: number, httpPort: number): number {
  const tcp = tcpSockets(pid);
  let count = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed while we looked
    }
    const end = tcp.get(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '');
    const accepted = end?.startsWith(`127.0.0.1:${httpPort} `) && !end.endsWith('LISTEN');
    if (!accepted) count++;
  }
  return count;
}

/**
 * Polls until `serverFds(pid, httpPort) <= target` (sockets the peer closed take a moment to
 * go) or `timeoutMs` passes; returns the last count either way, for the caller to assert on.
 */
export async function settledFds(pid: number, httpPort: number, target: number, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const now = serverFds(pid, httpPort);
    if (now <= target || Date.now() > until) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
}
