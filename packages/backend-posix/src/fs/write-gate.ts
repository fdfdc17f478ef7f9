// At most a few writes at once into one file from this process. A buffered write holds the file's
// inode lock for the whole call, so many pwrites into one file (the parts of one multipart upload
// written in place) run one at a time anyway; the others wait inside the kernel, each holding a
// libuv pool thread and, while the holder runs, spinning on the lock (system time taken from the
// MD5s and READs beside them: docs/performance.md). Waiting here instead costs a queued callback.
// Gates are shared by path and counted: the last holder's release() forgets the path.
import { Slots } from '../slots.js';
import type { PositionalFile } from './fd-file.js';

/**
 * Writes let into one file at once when VGWRDMA_FILE_WRITERS does not say (0: no gate). One: on
 * the H200 host a 4 GiB managed upload (64 MiB parts, 8 in flight) ran 1.36–1.45× as fast cold
 * (e.g. 2.25 → 3.04 GB/s) and 0.94–1.14× warm on three machines; two at once was no better.
 */
export const DEFAULT_FILE_WRITERS = 1;

/** One path's slots, and how many gated files share them. */
interface Gate {
  readonly slots: Slots;
  refs: number;
}

const gates = new Map<string, Gate>();

/** VGWRDMA_FILE_WRITERS as a count (0: no gate), else the default. */
export function fileWriters(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.VGWRDMA_FILE_WRITERS);
  return env.VGWRDMA_FILE_WRITERS !== undefined && Number.isSafeInteger(n) && n >= 0
    ? n
    : DEFAULT_FILE_WRITERS;
}

/** A file whose writes go through the gate of `path`; release() once no more writes come. */
export interface GatedFile extends PositionalFile {
  release(): void;
}

/** `file` with its writes through `path`'s gate of `limit` (0: straight through). */
export function gated(path: string, file: PositionalFile, limit = fileWriters()): GatedFile {
  let held = limit > 0 ? gates.get(path) : undefined;
  if (limit > 0 && !held) {
    held = { slots: new Slots(limit), refs: 0 };
    gates.set(path, held);
  }
  if (held) held.refs++;
  let released = false;
  return {
    fd: file.fd,
    writev: (buffers, position) =>
      held ? held.slots.run(() => file.writev(buffers, position)) : file.writev(buffers, position),
    wrote: (position, bytes) => file.wrote?.(position, bytes),
    release: () => {
      if (released || !held) return;
      released = true;
      if (--held.refs === 0 && gates.get(path) === held) gates.delete(path);
    },
  };
}
