// What a loaded shim library can do, asked once at load: the CRC kernels' CPU paths, whether
// digests can run on OpenSSL (and whose), and which transport providers were compiled in. This is
// the content of the loader's one start line. cuobj is not asked: asking loads NVIDIA's library
// (vgw_shim_provider_built tries it), which a start line must not do; transfers ask when used.
import type { ShimSource } from './library-resolver.js';
import { nativeLogger } from './logger.js';
import type { NativeLibrary } from './shim-library.js';

/** The optional kernels a library has, as the start line reports them. */
export interface NativeKernelSupport {
  /** CRC64NVME by PCLMULQDQ folding and CRC32C by SSE4.2 (else the library's portable loops). */
  readonly crcAccelerated: boolean;
  /** Where MD5/SHA-256 come from ('process' = Node's own OpenSSL), or undefined without one. */
  readonly digestSource: string | undefined;
  /** ibverbs DC transport compiled in (rdma-core headers at build time). */
  readonly verbs: boolean;
}

export interface NativeLibraryStatus extends NativeKernelSupport {
  readonly path: string;
  readonly source: ShimSource;
  readonly abi: string;
}

interface StatusFns {
  vgw_crc_accelerated(): number;
  vgw_digest_available(): number;
  vgw_digest_source(): string | null;
  vgw_shim_provider_built(provider: number): number;
}

const PROVIDER_VERBS = 2;
const statuses = new WeakMap<NativeLibrary, NativeLibraryStatus>();

/** The library's path, origin, ABI and optional kernels (asked once per library). */
export function describeLibrary(lib: NativeLibrary): NativeLibraryStatus {
  const known = statuses.get(lib);
  if (known) return known;
  const fn = lib.bind<StatusFns>([
    'int vgw_crc_accelerated(void)',
    'int vgw_digest_available(void)',
    'const char *vgw_digest_source(void)',
    'int vgw_shim_provider_built(uint32_t provider)',
  ]);
  const status: NativeLibraryStatus = {
    path: lib.path,
    source: lib.source,
    abi: lib.abi,
    crcAccelerated: fn.vgw_crc_accelerated() === 1,
    digestSource: fn.vgw_digest_available() === 1 ? (fn.vgw_digest_source() ?? 'unknown') : undefined,
    verbs: fn.vgw_shim_provider_built(PROVIDER_VERBS) === 1,
  };
  statuses.set(lib, status);
  return status;
}

/** The start line: `native library loaded` with the file, its origin, ABI and kernels. */
export function logLoaded(status: NativeLibraryStatus): void {
  nativeLogger().info(
    {
      path: status.path,
      source: status.source,
      abi: status.abi,
      crc: status.crcAccelerated ? 'pclmul+sse4.2' : 'portable',
      digest: status.digestSource === undefined ? 'none' : `openssl (${status.digestSource})`,
      verbs: status.verbs,
    },
    'native library loaded',
  );
}
