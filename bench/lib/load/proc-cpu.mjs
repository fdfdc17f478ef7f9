// CPU time of a set of server processes from /proc (utime + stime of /proc/PID/stat, every thread,
// USER_HZ = 100 ticks a second): for the gateway its one pid, for Ceph RGW radosgw + OSD + mon.

import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** CPU ms one process has used so far (all threads). */
export function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name may hold spaces and parentheses: fields are counted from its closing ')'
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(rest[11]) + Number(rest[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU ms the given processes have used so far, together. */
export const cpuMsOf = (pids) => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
