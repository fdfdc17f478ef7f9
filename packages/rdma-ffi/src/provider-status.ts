// Whether a transport provider can be used by the loaded shim library — and, when it cannot, the
// one sentence the native side gives (vgw_shim_provider_built + its last error) as an
// RdmaLoadError with code VGW_ERR_RDMA_PROVIDER_UNAVAILABLE: what an app prints at start-up
// ("cuobj transport unavailable: NVIDIA libcuobjserver.so is not part of this build (...)")
// instead of an errno. Asking may load the provider (the cuobj plugin is loaded on first use).

import { RdmaLoadError } from './errors.js';
import type { ShimLibrary } from './native/shim-library.js';
import { PROVIDER_ID, type RdmaProvider } from './provider.js';

/** undefined when `provider` is usable; otherwise the error to throw (not thrown here). */
export function providerUnavailable(lib: ShimLibrary, provider: RdmaProvider): RdmaLoadError | undefined {
  if (lib.fn.vgw_shim_provider_built(PROVIDER_ID[provider]) === 1) return undefined;
  const { message } = lib.lastError(); // same thread: koffi's synchronous calls run on this one
  return new RdmaLoadError(
    'VGW_ERR_RDMA_PROVIDER_UNAVAILABLE',
    message || `${provider} transport unavailable in ${lib.path}`,
  );
}
