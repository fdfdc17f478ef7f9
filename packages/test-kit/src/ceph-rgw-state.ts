// The state file of a running Ceph RGW: what the fixture writes once its cluster is ready and
// what VGW_TEST_RGW=<state.json> points at (the shared development cluster writes the same shape).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

const user = z.object({
  uid: z.string().min(1),
  accessKeyId: z.string().min(1),
  secretAccessKey: z.string().min(1),
});

const stateSchema = z.object({
  endpoint: z.url(),
  region: z.string().min(1),
  /** The cluster's ceph.conf: radosgw-admin reaches the cluster through it (createUser). */
  conf: z.string().min(1),
  users: z.object({ main: user, alt: user }),
  /** radosgw's, the OSD's and the mon's pid files (read at each pids(): radosgw's pid changes on restart). */
  pidFiles: z.array(z.string()),
  /** The fixture's supervisor (absent for a cluster started some other way). */
  supervisor: z.number().int().positive().optional(),
});

export type RgwState = z.infer<typeof stateSchema>;

export function readRgwState(file: string): RgwState {
  const parsed = stateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not an RGW state file: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Written whole or not at all: readers polling for the file never see half of it. */
export function writeRgwState(file: string, state: RgwState): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** The pids in the files that exist and name a live process. */
export function livePids(pidFiles: readonly string[]): number[] {
  const pids: number[] = [];
  for (const file of pidFiles) {
    let pid: number;
    try {
      pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    } catch {
      continue;
    }
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) pids.push(pid);
  }
  return pids;
}

/** A process that exists and is not a zombie (a daemon's exit is reaped by whoever adopted it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // the state is the field after the parenthesised command name
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
