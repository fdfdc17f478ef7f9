// The process's one koffi. Every piece of vgwrdma native code binds through the koffi instance
// this package imports: a struct registered on one koffi instance is unknown to another, and a
// type object of one passed to a function of another aborts the process (the crash a global
// install with three koffi copies showed). So @vgwrdma/native is koffi's only dependency holder;
// @vgwrdma/rdma-ffi imports `koffi` from here, and libc's calls are declared here (src/sys). At load this module
// claims a process-wide slot (a global symbol) with its koffi's path; a second @vgwrdma/native
// whose koffi is another copy refuses to load, naming both paths, instead of mixing instances.
// An application's own koffi (any version) is no concern: our code never touches it.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import koffi from 'koffi';
import { NativeLoadError } from './errors.js';

/** koffi's types (LibraryHandle, TypeObject, node.PollHandle, …) without a dependency on koffi. */
export type * as Koffi from 'koffi';
export { koffi };

/** Which koffi a loaded @vgwrdma/native uses: directories, resolved (symlinks followed). */
export interface KoffiClaim {
  readonly koffi: string;
  readonly native: string;
}

/** The global slot: one per process, shared by every copy of this package. */
export const KOFFI_CLAIM = Symbol.for('@vgwrdma/native.koffi');

/**
 * Records `mine` in `registry` unless a claim for another koffi copy is there: then throws
 * VGW_ERR_NATIVE_DUPLICATE_KOFFI naming both. Copies of @vgwrdma/native that share one koffi agree.
 */
export function claimKoffi(registry: Record<symbol, unknown>, mine: KoffiClaim): KoffiClaim {
  const prior = registry[KOFFI_CLAIM] as KoffiClaim | undefined;
  if (prior === undefined) {
    registry[KOFFI_CLAIM] = mine;
    return mine;
  }
  if (prior.koffi === mine.koffi) return prior;
  throw new NativeLoadError(
    'VGW_ERR_NATIVE_DUPLICATE_KOFFI',
    `@vgwrdma/native: two koffi copies in one process: ${prior.koffi} (loaded by ${prior.native}) ` +
      `and ${mine.koffi} (by ${mine.native}); native code must share one: install so that one ` +
      '@vgwrdma/native and one koffi 3 remain (npm dedupe; every @vgwrdma package of one version)',
  );
}

/** This copy's claim, made when the module loads. */
export const koffiClaim: KoffiClaim = claimKoffi(globalThis as unknown as Record<symbol, unknown>, {
  koffi: dirname(fileURLToPath(import.meta.resolve('koffi'))),
  native: dirname(dirname(fileURLToPath(import.meta.url))),
});
