// Who made a temp file or a multipart claim, so that a gateway starting on a tree that other
// gateways may share removes only what a dead process left. An owner is `<tag>-<pid>`: the tag
// names the kernel boot and pid namespace (two owners with one tag see the same pids), so a
// process with that tag can tell whether the pid still runs. Anything else (another host,
// another container, an unmarked file) can only be judged by its age.
import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

function readOr(read: () => string, fallback: string): string {
  try {
    return read();
  } catch {
    return fallback;
  }
}

function computeTag(): string {
  const boot = readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), hostname());
  const pidns = readOr(() => readlinkSync('/proc/self/ns/pid'), 'pidns');
  return createHash('sha256').update(`${boot}\0${pidns}`).digest('hex').slice(0, 12);
}

/** This process's boot + pid-namespace tag (12 hex). */
export const OWNER_TAG = computeTag();

const OWNER_RE = /^([0-9a-f]{12})-(\d{1,10})$/;

interface Owner {
  readonly tag: string;
  readonly pid: number;
}

/** `<tag>-<pid>` of this process (or of `pid` with this process's tag). */
export function ownerId(pid: number = process.pid): string {
  return `${OWNER_TAG}-${pid}`;
}

export function parseOwner(text: string): Owner | undefined {
  const m = OWNER_RE.exec(text);
  return m?.[1] && m[2] ? { tag: m[1], pid: Number(m[2]) } : undefined;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the pid exists but belongs to someone else; only ESRCH proves it is gone.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * True only when the owner certainly no longer runs: same boot and pid namespace, not this
 * process, and no process with that pid. A reused pid keeps the entry until it ages out.
 */
export function ownerIsDead(owner: Owner | undefined): boolean {
  if (owner === undefined || owner.tag !== OWNER_TAG || owner.pid === process.pid) return false;
  return !pidAlive(owner.pid);
}
