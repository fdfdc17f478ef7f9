// memcpy on the libuv pool: a copy of many MiB between two buffers that does not hold the event
// loop, so the copies of several transfers run side by side on the pool's threads. cuobjclient's
// TransferManager copies each part between the caller's Uint8Array and a session's registered
// memory this way: done on the event loop, one thread's copy bounded a 4 GiB host-memory transfer
// (docs/performance.md). libc's memcpy (koffi hands it the arrays' own memory, no copy of them);
// undefined where libc cannot be opened here (the caller copies inline).
import { libc } from '../libc.js';
import { declareOptional } from './once.js';

/** Copies `src` into `dst` (same length, not overlapping) on the pool; rejects only when koffi could not call. */
export type MemCopyFn = (dst: Uint8Array, src: Uint8Array) => Promise<void>;

export const memCopyCall: () => MemCopyFn | undefined = declareOptional(() => {
  const fn = libc().func('void *memcpy(void *dst, const void *src, size_t n)');
  return (dst, src) => {
    if (dst.length !== src.length)
      return Promise.reject(new RangeError(`memcpy: ${src.length} bytes into ${dst.length}`));
    return new Promise<void>((resolve, reject) => {
      fn.async(dst, src, src.length, (err: unknown) => (err ? reject(err) : resolve()));
    });
  };
});
