// At most a few writes at once into one file from this process. A buffered write holds the file's
// inode lock for the whole call, so many pwrites into one file (the parts of one multipart upload
// written in place) run one at a time anyway; the others wait inside the kernel, each holding a
// libuv pool thread and, while the holder runs, spinning on the lock (system time taken from the
// MD5s and READs beside them: docs/performance.md). Waiting here instead costs a queued callback.
// Gates are shared by path and counted: the last holder's release() forgets the path.
import type { PositionalFile } from './fd-file.js';

/**
 * Writes let into one file at once when VGWRDMA_FILE_WRITERS does not say (0: no gate). One: on
 * the H200 host a 4 GiB managed upload (64 MiB parts, 8 in flight) ran at 3.44 / 4.03 GB/s cold /
 * warm through a gate of one against 2.38 / 3.54 without, and a gate of two at 3.58 / 3.90.
 */
export const DEFAULT_FILE_WRITERS = 1;
/**
 * Writes that may go through a mapping of their part's region while the pwrite lanes are taken
 * (VGWRDMA_MAPPED_WRITERS; only parts whose region was mapped can): a mapped write takes no file
 * lock, so these run beside the pwrites (fs/mapped-region-file.ts).
 */
export const DEFAULT_MAPPED_WRITERS = 0;

type Lane = 'pwrite' | 'mapped';

interface Waiter {
  go(lane: Lane): void;
  canMap: boolean;
}

class Gate {
  refs = 0;
  private readonly active: Record<Lane, number> = { pwrite: 0, mapped: 0 };
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: Record<Lane, number>) {}

  async run<T>(pwrite: () => Promise<T>, mapped?: () => Promise<T>): Promise<T> {
    const lane = this.take('pwrite') ?? (mapped && this.take('mapped'));
    // else wait: done() hands over a lane it frees
    const got =
      lane || (await new Promise<Lane>((go) => this.waiting.push({ go, canMap: mapped !== undefined })));
    try {
      return await (got === 'mapped' && mapped ? mapped() : pwrite());
    } finally {
      this.done(got);
    }
  }

  private take(lane: Lane): Lane | undefined {
    if (this.active[lane] >= this.limits[lane]) return undefined;
    this.active[lane]++;
    return lane;
  }

  private done(lane: Lane): void {
    const i =
      lane === 'pwrite' ? (this.waiting.length > 0 ? 0 : -1) : this.waiting.findIndex((w) => w.canMap);
    if (i < 0) this.active[lane]--;
    else this.waiting.splice(i, 1)[0]?.go(lane);
  }
}

const gates = new Map<string, Gate>();

function count(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return raw !== undefined && raw !== '' && Number.isSafeInteger(n) && n >= 0 ? n : fallback;
}

/** VGWRDMA_FILE_WRITERS as a count (0: no gate), else the default. */
export function fileWriters(env: NodeJS.ProcessEnv = process.env): number {
  return count(env.VGWRDMA_FILE_WRITERS, DEFAULT_FILE_WRITERS);
}

/** VGWRDMA_MAPPED_WRITERS as a count, else the default. */
export function mappedWriters(env: NodeJS.ProcessEnv = process.env): number {
  return count(env.VGWRDMA_MAPPED_WRITERS, DEFAULT_MAPPED_WRITERS);
}

/** A file whose writes go through the gate of `path`; release() once no more writes come. */
export interface GatedFile extends PositionalFile {
  release(): void;
}

/**
 * `file` with its writes through `path`'s gate of `limit` pwrites (0: straight through) and, when
 * `mapped` is given, up to `mappedLimit` writes through it beside them.
 */
export function gated(
  path: string,
  file: PositionalFile,
  mapped?: PositionalFile,
  limit = fileWriters(),
  mappedLimit = mappedWriters(),
): GatedFile {
  let held = limit > 0 ? gates.get(path) : undefined;
  if (limit > 0 && !held) {
    held = new Gate({ pwrite: limit, mapped: mappedLimit });
    gates.set(path, held);
  }
  if (held) held.refs++;
  let released = false;
  return {
    fd: file.fd,
    writev: (buffers, position) => {
      const pwrite = () => file.writev(buffers, position);
      if (!held) return pwrite();
      return held.run(pwrite, mapped && (() => mapped.writev(buffers, position)));
    },
    wrote: (position, bytes) => file.wrote?.(position, bytes),
    release: () => {
      if (released || !held) return;
      released = true;
      if (--held.refs === 0 && gates.get(path) === held) gates.delete(path);
    },
  };
}
