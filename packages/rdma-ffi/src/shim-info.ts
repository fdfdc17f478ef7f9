// What the loaded shim library is and can do: for startup logs, health endpoints and error
// messages ("provider cuobj not built here"), and the ceiling probes the softnic benchmark uses.

import type { ShimSource } from '@vgwrdma/native';
import { loadShimLibrary } from './native/shim-library.js';
import { PROVIDER_ID, type RdmaProvider } from './provider.js';

export interface ShimInfo {
  /** Absolute path of the loaded libvgwrdma_shims. */
  readonly path: string;
  /** Where it was found: option, VGWRDMA_SHIM_DIR, platform package, `npx @vgwrdma/native build`, repo build. */
  readonly source: ShimSource;
  /** ABI version as 'major.minor'. */
  readonly abi: string;
  /** Providers compiled into this library. */
  readonly providers: readonly RdmaProvider[];
}

/** Loads the library (throws NativeLoadError when missing) and describes it. */
export function shimInfo(options: { shimDir?: string } = {}): ShimInfo {
  const lib = loadShimLibrary(options);
  const providers = (Object.keys(PROVIDER_ID) as RdmaProvider[]).filter(
    (p) => lib.fn.vgw_shim_provider_built(PROVIDER_ID[p]) === 1,
  );
  return {
    path: lib.path,
    source: lib.source,
    abi: `${lib.abiVersion >>> 16}.${lib.abiVersion & 0xffff}`,
    providers,
  };
}
