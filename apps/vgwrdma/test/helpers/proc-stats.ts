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
 * Polls until `fdCounts(pid).total <= target` (sockets the peer closed take a moment to go) or
 * `timeoutMs` passes; returns the last counts either way, for the caller to assert on.
 */
export async function settledFds(pid: number, target: number, timeoutMs = 5000): Promise<FdCounts> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const now = fdCounts(pid);
    if (now.total <= target || Date.now() > until) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
}
