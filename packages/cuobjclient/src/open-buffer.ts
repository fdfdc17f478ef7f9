// Session.open's native half: validates the memory options, starts the transport client
// (HostClient for 'host', GpuClient for 'cuda') and registers the session's memory, turning
// every failure into one CuObjError that names what is missing (shim library, CUDA runtime,
// CUDA device, device memory).

import { installNativeKernels } from '@vgwrdma/native/kernels';
import {
  type DeviceMemory,
  GpuClient,
  HostClient,
  type HostClientOptions,
  RdmaError,
} from '@vgwrdma/rdma-ffi';
import { CuObjError } from './errors.js';
import { hostOptionsFromEnv } from './host-env.js';
import type { SessionOptions } from './session.js';
import {
  CudaSessionBuffer,
  HostSessionBuffer,
  type OverlapSettings,
  type SessionBuffer,
} from './session-buffer.js';

export type SessionMemory = 'host' | 'cuda';

/** The Session.open options this module reads. */
type BufferOptions = Pick<
  SessionOptions,
  'size' | 'memory' | 'device' | 'devicePtr' | 'cudaLibrary' | 'staging' | 'host' | 'shimDir' | 'env'
>;

interface OpenedBuffer {
  readonly client: HostClient | GpuClient;
  readonly buffer: SessionBuffer;
}

const CUDA_ONLY = ['device', 'devicePtr', 'cudaLibrary', 'staging'] as const;

function invalid(message: string): CuObjError {
  return new CuObjError('VGW_ERR_CUOBJ_INVALID_OPTION', message);
}

function why(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Throws VGW_ERR_CUOBJ_INVALID_OPTION for a bad memory kind or CUDA options on a host session. */
function checkMemoryOptions(o: BufferOptions): SessionMemory {
  const memory = o.memory ?? 'host';
  if (memory !== 'host' && memory !== 'cuda')
    throw invalid(`memory must be 'host' or 'cuda', got ${String(memory)}`);
  if (memory === 'host') {
    const stray = CUDA_ONLY.filter((k) => o[k] !== undefined);
    if (stray.length) throw invalid(`${stray.join(', ')} only apply to memory: 'cuda'`);
  }
  if (o.device !== undefined && (!Number.isSafeInteger(o.device) || o.device < 0))
    throw invalid(`device must be a CUDA device ordinal (0, 1, ...), got ${o.device}`);
  if (o.devicePtr !== undefined && (typeof o.devicePtr !== 'bigint' || o.devicePtr <= 0n))
    throw invalid('devicePtr must be a non-zero BigInt device address');
  const { overlap, overlapChunkBytes: chunk, stallTimeoutMs: stall } = o.staging ?? {};
  if (overlap !== undefined && typeof overlap !== 'boolean')
    throw invalid(`staging.overlap must be true or false, got ${String(overlap)}`);
  if (chunk !== undefined && (!Number.isSafeInteger(chunk) || chunk < 64 * 1024))
    throw invalid(`staging.overlapChunkBytes must be an integer >= 65536, got ${chunk}`);
  if (stall !== undefined && (!Number.isSafeInteger(stall) || stall < 1 || stall > 0xffffffff))
    throw invalid(`staging.stallTimeoutMs must be 1..4294967295 ms, got ${stall}`);
  return memory;
}

export function openBuffer(o: BufferOptions): OpenedBuffer {
  const memory = checkMemoryOptions(o);
  const hostOptions: { -readonly [K in keyof HostClientOptions]: HostClientOptions[K] } = {
    ...hostOptionsFromEnv(o.env),
    ...o.host,
  };
  // An explicit env stands for the whole environment, VGWRDMA_SHIM_DIR included.
  const shimDir = o.shimDir ?? (o.env ? o.env.VGWRDMA_SHIM_DIR || undefined : undefined);
  if (shimDir !== undefined) hostOptions.shimDir = shimDir;
  let client: HostClient | GpuClient;
  try {
    client = memory === 'cuda' ? new GpuClient(hostOptions) : new HostClient(hostOptions);
  } catch (err) {
    throw new CuObjError('VGW_ERR_CUOBJ_UNAVAILABLE', `cannot open an RDMA session: ${why(err)}`, {
      cause: err,
    });
  }
  try {
    // The library is there: let the checksum registry use its CRC32C kernel too (once a process).
    installNativeKernels({ shimDir, env: o.env });
    return { client, buffer: memory === 'cuda' ? openCuda(client as GpuClient, o) : openHost(client, o) };
  } catch (err) {
    client.close();
    throw err;
  }
}

function openHost(client: HostClient | GpuClient, o: BufferOptions): SessionBuffer {
  try {
    return new HostSessionBuffer(client.allocate(o.size));
  } catch (err) {
    throw new CuObjError('VGW_ERR_CUOBJ_UNAVAILABLE', `cannot register ${o.size} bytes: ${why(err)}`, {
      cause: err,
    });
  }
}

function openCuda(client: GpuClient, o: BufferOptions): SessionBuffer {
  const library = o.cudaLibrary ?? (o.env ? o.env.VGWRDMA_CUDA_LIB || undefined : undefined);
  try {
    client.configureCuda({ ...(library === undefined ? {} : { library }), device: o.device ?? 0 });
    if (o.staging) client.setStaging(o.staging);
  } catch (err) {
    throw new CuObjError(
      'VGW_ERR_CUOBJ_UNAVAILABLE',
      `memory: 'cuda' needs a CUDA runtime and device: ${why(err)}`,
      { cause: err },
    );
  }
  try {
    const device =
      o.devicePtr === undefined
        ? client.allocate(o.size, 'cuda-device')
        : client.register(o.devicePtr, o.size, 'cuda-device');
    return new CudaSessionBuffer(device, overlapSettings(device, o));
  } catch (err) {
    const what =
      o.devicePtr === undefined ? `allocate ${o.size} bytes of` : `register ${o.size} bytes of the given`;
    throw new CuObjError('VGW_ERR_CUOBJ_UNAVAILABLE', `cannot ${what} CUDA device memory: ${why(err)}`, {
      cause: err,
    });
  }
}

/**
 * Overlap is on unless staging.overlap is false, and needs progress gates, which only softnic
 * has (a NIC reaches the memory without the agent): elsewhere the staging runs before / after.
 */
function overlapSettings(device: DeviceMemory, o: BufferOptions): OverlapSettings {
  let enabled = o.staging?.overlap !== false;
  if (enabled) {
    try {
      device.progress.arm('off');
    } catch (err) {
      if (!(err instanceof RdmaError)) throw err;
      enabled = false;
    }
  }
  return {
    enabled,
    chunkBytes: o.staging?.overlapChunkBytes ?? 0,
    stallTimeoutMs: o.staging?.stallTimeoutMs ?? 0,
  };
}
