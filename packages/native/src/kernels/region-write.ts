// Writes into a region of a file through a shared mapping (native-shims src/io/region_write.c),
// on the libuv pool. Many parts of one multipart upload written into one file at once: a buffered
// pwrite holds the file's lock for its whole copy, so the parts take turns (and on a busy host
// spin on it); mapped writes take no such lock. H200 host, ext4, sixteen writers of 64 MiB parts
// into one preallocated file beside eight CPU-bound threads: pwrite 2.2-3.4 GB/s, mapped 5.8-8.0
// (docs/performance.md). The region is mapped once; each write populates its pages, copies and
// drops them from the mapping again, so the process keeps only the pages of writes in flight. A
// write never grows the file, and answers an error, never a signal, for a page it cannot back.
import { constants } from 'node:os';
import type { NativeLibrary } from '../shim-library.js';
import { installedLibrary } from './install-kernels.js';

/** The library's region writes exist from this ABI minor on. */
const REGION_ABI_MINOR = 11;

/** One mapped region of a file. */
export interface RegionWriter {
  /**
   * On the pool: copies `bytes` to file offset `at` (inside the region). Resolves 0, or a negative
   * errno: -EOPNOTSUPP (the kernel cannot populate a mapping for writing: pwrite from now on),
   * -EFAULT (a page could not be backed: pwrite the bytes to learn why), -ERANGE (outside the
   * region). Rejects only when koffi could not make the call, or after close().
   */
  write(at: number, bytes: Uint8Array): Promise<number>;
  /** Unmaps the region (on the pool) once no write runs; later calls resolve at once. */
  close(): Promise<void>;
}

/** Maps [at, at + len) of `fd` (open for reading and writing): a writer, or a negative errno. */
export type RegionMapFn = (fd: number, at: number, len: number) => RegionWriter | number;

type Async<R> = { async(...args: [...unknown[], (err: unknown, r: R) => void]): void };
interface RegionFns {
  vgw_region_map(fd: number, at: number, len: number, out: unknown[]): number;
  vgw_region_write: ((...args: unknown[]) => number) & Async<number>;
  vgw_region_unmap: ((r: unknown) => void) & Async<void>;
}

const bound = new WeakMap<NativeLibrary, RegionMapFn>();

function bind(lib: NativeLibrary): RegionMapFn {
  const known = bound.get(lib);
  if (known) return known;
  const fns = lib.bind<RegionFns>([
    'int vgw_region_map(int fd, int64_t at, uint64_t len, _Out_ void **out)',
    'int vgw_region_write(void *r, int64_t at, const void *src, size_t len)',
    'void vgw_region_unmap(void *r)',
  ]);
  const map: RegionMapFn = (fd, at, len) => {
    const out: unknown[] = [null];
    const rc = fns.vgw_region_map(fd, at, len, out);
    if (rc === 0 && out[0] != null) return regionWriter(fns, out[0]);
    return rc < 0 ? rc : -constants.errno.EINVAL;
  };
  bound.set(lib, map);
  return map;
}

function regionWriter(fns: RegionFns, region: unknown): RegionWriter {
  let inFlight = 0;
  let closed: Promise<void> | undefined;
  let idle: (() => void) | undefined;
  return {
    write(at, bytes) {
      if (closed) return Promise.reject(new Error('region write after close'));
      inFlight++;
      return new Promise<number>((resolve, reject) => {
        fns.vgw_region_write.async(region, at, bytes, bytes.length, (err: unknown, rc: number) => {
          if (--inFlight === 0) idle?.();
          if (err) reject(err);
          else resolve(rc);
        });
      });
    },
    close() {
      closed ??= (async () => {
        if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
        await new Promise<void>((resolve, reject) =>
          fns.vgw_region_unmap.async(region, (err: unknown) => (err ? reject(err) : resolve())),
        );
      })();
      return closed;
    },
  };
}

/**
 * The mapped region writes of the library installNativeKernels() loaded, or undefined: no library
 * here (or one older than them), a platform other than Linux, or VGWRDMA_REGION_WRITE=pwrite
 * (`env`, default process.env).
 */
export function regionMapCall(
  env: Readonly<Record<string, string | undefined>> = process.env,
): RegionMapFn | undefined {
  if (process.platform !== 'linux' || env.VGWRDMA_REGION_WRITE === 'pwrite') return undefined;
  const lib = installedLibrary();
  if (lib === undefined || (lib.abiVersion & 0xffff) < REGION_ABI_MINOR) return undefined;
  return bind(lib);
}
