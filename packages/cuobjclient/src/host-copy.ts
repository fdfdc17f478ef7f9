// A part's bytes between the caller's host memory and a session's registered memory. A large
// part is copied on the libuv pool (@vgwrdma/native memCopyCall), so the parts in flight copy on
// several threads at once while the event loop drives their requests; on the event loop, one
// thread's copies bounded a 4 GiB host-memory transfer (docs/performance.md). Small parts, and
// a platform without the call, copy inline.
import { memCopyCall } from '@vgwrdma/native';

/** Parts below this are copied inline: a pool round trip costs more than the copy. */
const OFF_THREAD_BYTES = 1 << 20;

/** Copies `src` into `dst` (the same length). */
export async function copyPart(dst: Uint8Array, src: Uint8Array): Promise<void> {
  const offThread = src.length >= OFF_THREAD_BYTES ? memCopyCall() : undefined;
  if (offThread) await offThread(dst, src);
  else dst.set(src);
}
