// Caller-owned GPU memory for the managed benchmark: cudaMalloc / cudaMemcpy / cudaMemset / cudaFree
// of the CUDA runtime through koffi (the way rdma-ffi loads it), so the benchmark hands
// TransferManager a device pointer it owns — as an application would — of any size (a Session's
// own device memory stops at one token's capacity and brings a pinned host twin of the same size).
import { createRequire } from 'node:module';

/** koffi: beside the bundle (bench/device), else @vgwrdma/native's (the workspace's one koffi). */
async function loadKoffi() {
  try {
    return (await import('koffi')).default;
  } catch {
    return createRequire(new URL('../../../packages/native/package.json', import.meta.url))('koffi');
  }
}
const koffi = await loadKoffi();

const CANDIDATES = ['libcudart.so', 'libcudart.so.13', 'libcudart.so.12'];

function load(explicit) {
  const names = explicit ? [explicit] : CANDIDATES;
  let last;
  for (const name of names) {
    try {
      return koffi.load(name);
    } catch (err) {
      last = err;
    }
  }
  throw new Error(`no CUDA runtime (${names.join(', ')}): ${last?.message ?? ''}`);
}

/** The CUDA runtime's calls the benchmark needs; throws when there is no runtime or device. */
export function openCuda(device = 0, library = process.env.VGWRDMA_CUDA_LIB) {
  const lib = load(library);
  const setDevice = lib.func('int cudaSetDevice(int device)');
  const malloc = lib.func('int cudaMalloc(_Out_ uint64_t *ptr, size_t size)');
  const free = lib.func('int cudaFree(uint64_t ptr)');
  const h2d = lib.func('cudaMemcpy', 'int', ['uint64_t', 'const void *', 'size_t', 'int']);
  const d2h = lib.func('cudaMemcpy', 'int', ['void *', 'uint64_t', 'size_t', 'int']);
  const memset = lib.func('int cudaMemset(uint64_t ptr, int value, size_t count)');
  const sync = lib.func('int cudaDeviceSynchronize(void)');
  const check = (rc, what) => {
    if (rc !== 0) throw new Error(`${what} failed: cudaError ${rc}`);
  };
  check(setDevice(device), 'cudaSetDevice');
  return {
    /** A device allocation of `size` bytes (its pointer as a bigint). */
    alloc(size) {
      const out = [0n];
      check(malloc(out, size), `cudaMalloc(${size})`);
      return BigInt(out[0]);
    },
    free(ptr) {
      check(free(ptr), 'cudaFree');
    },
    /** Host bytes → device at ptr + offset. */
    toDevice(ptr, offset, bytes) {
      check(h2d(ptr + BigInt(offset), bytes, bytes.length, 1), 'cudaMemcpy H2D');
    },
    /** Device at ptr + offset → host bytes. */
    toHost(ptr, offset, into) {
      check(d2h(into, ptr + BigInt(offset), into.length, 2), 'cudaMemcpy D2H');
    },
    zero(ptr, size) {
      check(memset(ptr, 0, size), 'cudaMemset');
      check(sync(), 'cudaDeviceSynchronize');
    },
  };
}
