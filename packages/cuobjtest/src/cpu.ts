// CPU time around a timed iteration: this process's own (process.cpuUsage(): every thread, so the
// transport's agent and the libuv pool count too) and, with -server-pid, a server process's on the
// same Linux host (utime + stime of /proc/PID/stat, every thread; clock ticks of 10 ms). With the
// wall time of the same window they say which side a throughput figure is bound by.

import { readFileSync } from 'node:fs';

/** USER_HZ: the unit of utime/stime in /proc/PID/stat (100 on every Linux ABI Node runs on). */
const TICKS_PER_SECOND = 100;

/** CPU ms a process has used so far (all threads): utime + stime from /proc/PID/stat. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces and parentheses): state is field 3.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(rest[11]); // field 14
  const stime = Number(rest[12]); // field 15
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`unreadable /proc/${pid}/stat`);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** CPU ms this process has used so far (all threads). */
export function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

interface CpuSample {
  readonly clientMs: number;
  readonly serverMs?: number;
}

/** A sample now: this process, and the server's when a pid is given. */
export function sampleCpu(serverPid: number | undefined): CpuSample {
  const clientMs = selfCpuMs();
  return serverPid === undefined ? { clientMs } : { clientMs, serverMs: processCpuMs(serverPid) };
}

/** CPU ms spent between two samples. */
export function cpuSpent(from: CpuSample, to: CpuSample): CpuSample {
  const clientMs = to.clientMs - from.clientMs;
  return from.serverMs === undefined || to.serverMs === undefined
    ? { clientMs }
    : { clientMs, serverMs: to.serverMs - from.serverMs };
}
