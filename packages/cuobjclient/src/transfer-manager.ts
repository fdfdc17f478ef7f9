// TransferManager: managed multipart RDMA transfers of objects of any size (to S3's 5 TiB /
// 10,000 parts), in the spirit of @aws-sdk/lib-storage's Upload and boto3's transfer manager,
// built on Session. It keeps a pool of registered sessions (one per part in flight, per memory
// kind and part size) reused across parts and transfers; close() / await using frees them.

import { type DeviceAllocation, GpuClient } from '@vgwrdma/rdma-ffi';
import { CuObjError } from './errors.js';
import { hostOptionsFromEnv } from './host-env.js';
import { managedDownload } from './managed-download.js';
import { managedUpload, type TransferContext } from './managed-upload.js';
import type { SessionMemory } from './open-buffer.js';
import { type PooledSessionOptions, SessionPool } from './session-pool.js';
import { type ResolvedOptions, resolveOptions } from './transfer-options.js';
import type {
  DownloadRequest,
  DownloadResult,
  TransferManagerOptions,
  UploadRequest,
  UploadResult,
} from './transfer-types.js';

export class TransferManager implements AsyncDisposable {
  /** The options in force, defaults filled in. */
  readonly options: ResolvedOptions;
  private readonly ctx: TransferContext;
  private readonly pools = new Map<string, SessionPool>();
  private readonly sessionOptions: PooledSessionOptions;
  private readonly active = new Set<Promise<unknown>>();
  private isClosed = false;
  private gpu: GpuClient | undefined;
  private readonly gpuOptions: {
    device?: number;
    cudaLibrary?: string;
    shimDir?: string;
    env?: TransferManagerOptions['env'];
  };

  /** Checks the options (VGW_ERR_CUOBJ_INVALID_OPTION); sessions are opened on first use. */
  constructor(options: TransferManagerOptions) {
    this.options = resolveOptions(options);
    const { device, cudaLibrary, host, shimDir, env } = options;
    this.sessionOptions = {
      ...(host === undefined ? {} : { host }),
      ...(shimDir === undefined ? {} : { shimDir }),
      ...(env === undefined ? {} : { env }),
    };
    const cuda = {
      ...(device === undefined ? {} : { device }),
      ...(cudaLibrary === undefined ? {} : { cudaLibrary }),
    };
    this.gpuOptions = {
      ...cuda,
      ...(shimDir === undefined ? {} : { shimDir }),
      ...(env === undefined ? {} : { env }),
    };
    this.ctx = {
      s3: options.client,
      options: this.options,
      pool: (memory, size) => this.pool(memory, size, memory === 'cuda' ? cuda : {}),
    };
  }

  /** Uploads `source` to bucket/key: one RDMA PutObject up to the threshold, else a multipart upload. */
  upload(request: UploadRequest): Promise<UploadResult> {
    return this.track(() => managedUpload(this.ctx, request));
  }

  /** Downloads bucket/key into `destination` by concurrent ranged RDMA GETs. */
  download(request: DownloadRequest): Promise<DownloadResult> {
    return this.track(() => managedDownload(this.ctx, request));
  }

  /**
   * Allocates `size` bytes of GPU memory (cudaMalloc; not registered, so any size the device
   * holds) to upload from or download into: pass it as `source` / `destination` (it is a
   * `{ memory: 'cuda', devicePtr, size }`). Fill and check it with copyFromHost / copyToHost,
   * or hand `devicePtr` to your kernels. Freed by its close() or the manager's close().
   * VGW_ERR_CUOBJ_UNAVAILABLE without a CUDA runtime or device.
   */
  allocateDevice(size: number): DeviceAllocation {
    if (this.isClosed) throw new CuObjError('VGW_ERR_CUOBJ_SESSION_CLOSED', 'the TransferManager is closed');
    try {
      if (!this.gpu) {
        const { device, cudaLibrary, shimDir, env } = this.gpuOptions;
        const library = cudaLibrary ?? (env ? env.VGWRDMA_CUDA_LIB || undefined : undefined);
        const gpu = new GpuClient({
          ...hostOptionsFromEnv(env),
          ...(shimDir === undefined ? {} : { shimDir }),
        });
        try {
          gpu.configureCuda({ ...(library === undefined ? {} : { library }), device: device ?? 0 });
        } catch (e) {
          gpu.close();
          throw e;
        }
        this.gpu = gpu;
      }
      return this.gpu.allocateDevice(size);
    } catch (err) {
      throw new CuObjError(
        'VGW_ERR_CUOBJ_UNAVAILABLE',
        `cannot allocate ${size} bytes of GPU memory: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }

  /** Registered sessions open now (all pools). */
  get openSessions(): number {
    let n = 0;
    for (const p of this.pools.values()) n += p.opened;
    return n;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Waits for transfers in flight (ignoring their outcome), then frees every session and allocateDevice() memory. Idempotent. */
  async close(): Promise<void> {
    this.isClosed = true;
    while (this.active.size) await Promise.allSettled([...this.active]);
    const pools = [...this.pools.values()];
    this.pools.clear();
    for (const p of pools) p.close();
    this.gpu?.close();
    this.gpu = undefined;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private pool(memory: SessionMemory, size: number, cuda: PooledSessionOptions): SessionPool {
    const id = `${memory}:${size}`;
    let p = this.pools.get(id);
    if (!p) {
      p = new SessionPool(memory, size, this.options.concurrency, { ...this.sessionOptions, ...cuda });
      this.pools.set(id, p);
    }
    return p;
  }

  private track<T>(run: () => Promise<T>): Promise<T> {
    if (this.isClosed)
      return Promise.reject(new CuObjError('VGW_ERR_CUOBJ_SESSION_CLOSED', 'the TransferManager is closed'));
    const p = (async () => run())();
    this.active.add(p);
    const forget = () => this.active.delete(p);
    p.then(forget, forget);
    return p;
  }
}
