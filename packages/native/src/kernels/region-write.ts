// Writes into a region of a file through a shared mapping (native-shims src/io/region_write.c),
// on the libuv pool. Many parts of one multipart upload written into one file at once: a buffered
// pwrite holds the file's lock for its whole copy, so sixteen writers take turns; mapped writes
// take no such lock (H200 host, ext4, one preallocated file: 4.9-5.1 GB/s by pwrite, 8.9-10.1
// through a mapping; docs/performance.md). The region must already be inside the file
// (preallocated): the call never grows a file, and answers an error, never a signal, for a page
// it cannot back.
import type { NativeLibrary } from '../shim-library.js';
import { installedLibrary } from './install-kernels.js';

/**
 * On the pool: 0, or a negative errno: -EOPNOTSUPP (the kernel cannot populate a mapping for
 * writing: use pwrite from now on), -EFAULT (a page could not be backed: pwrite the bytes to
 * learn why), or another of mmap/madvise. Rejects only when koffi could not make the call.
 */
export type RegionWriteFn = (fd: number, at: number, bytes: Uint8Array) => Promise<number>;

interface RegionFns {
  vgw_region_write: ((...args: unknown[]) => number) & {
    async(...args: [...unknown[], (err: unknown, rc: number) => void]): void;
  };
}

const bound = new WeakMap<NativeLibrary, RegionWriteFn>();

function bind(lib: NativeLibrary): RegionWriteFn {
  const known = bound.get(lib);
  if (known) return known;
  const { vgw_region_write: fn } = lib.bind<RegionFns>([
    'int vgw_region_write(int fd, int64_t at, const void *src, size_t len)',
  ]);
  const call: RegionWriteFn = (fd, at, bytes) =>
    new Promise((resolve, reject) => {
      fn.async(fd, at, bytes, bytes.length, (err: unknown, rc: number) => (err ? reject(err) : resolve(rc)));
    });
  bound.set(lib, call);
  return call;
}

/**
 * The mapped region write of the library installNativeKernels() loaded, or undefined: no library
 * here, a platform other than Linux, or VGWRDMA_REGION_WRITE=pwrite (`env`, default process.env).
 */
export function regionWriteCall(
  env: Readonly<Record<string, string | undefined>> = process.env,
): RegionWriteFn | undefined {
  if (process.platform !== 'linux' || env.VGWRDMA_REGION_WRITE === 'pwrite') return undefined;
  const lib = installedLibrary();
  return lib === undefined ? undefined : bind(lib);
}
