// A registered region of CUDA device memory on a GpuClient (softnic: staged through a pinned
// host twin, the way NVIDIA GDS works in compatibility mode). The gateway reaches only the
// twin, so an upload needs stageToHost() before the request and a download stageToDevice()
// after it; cuobjclient's Session does both. copyFromHost / copyToHost / fill are plain
// cudaMemcpy / cudaMemset for filling and checking device memory (tests, benchmarks).

import { InvalidArgumentError } from '@vgwrdma/errors';
import { koffi } from '@vgwrdma/native';
import { errnoOf, RdmaError } from '../errors.js';
import { HostMemory } from './host-memory.js';

const HOST_TO_DEVICE = 1;
const DEVICE_TO_HOST = 2;
const MSG_CAP = 512;

function checkWindow(what: string, offset: number, size: number, total: number): void {
  if (
    !Number.isSafeInteger(offset) ||
    !Number.isSafeInteger(size) ||
    offset < 0 ||
    size <= 0 ||
    offset + size > total
  )
    throw new InvalidArgumentError(`${what}: [${offset}, +${size}) is outside the ${total}-byte region`);
}

export class DeviceMemory extends HostMemory {
  private twin: Uint8Array | undefined;

  /** The device pointer (as CUDA sees it; not CPU-addressable). Same as `address`. */
  get devicePtr(): bigint {
    return this.address;
  }

  /**
   * The host twin the transport serves (no copy; valid until close()). It holds what the last
   * stageToHost() copied out, and what stageToDevice() will copy in: read it for a checksum of
   * an upload, fill it with an HTTP fallback body before stageToDevice().
   */
  get stagingBytes(): Uint8Array {
    if (this.closed) throw new RdmaError('stagingBytes', errnoOf('EBADF'), 'memory is closed');
    if (!this.twin) {
      const at = this.lib.fn.cuobj_client_mr_staging_addr(this.handle);
      this.twin = new Uint8Array(koffi.view(at, this.size));
    }
    return this.twin;
  }

  /** Whether the host twin is pinned (cudaHostRegister); pageable twins work, slower. */
  get pinned(): boolean {
    return this.fns.cuobj_client_mr_staging_pinned(this.handle) === 1;
  }

  /** Device → host twin for [offset, offset+size): before the gateway reads (upload). Off the event loop. */
  stageToHost(offset = 0, size = this.size - offset): Promise<void> {
    return this.stage('stageToHost', this.fns.cuobj_client_stage_to_host, offset, size);
  }

  /** Host twin → device for [offset, offset+size): after the gateway wrote (download). Off the event loop. */
  stageToDevice(offset = 0, size = this.size - offset): Promise<void> {
    return this.stage('stageToDevice', this.fns.cuobj_client_stage_to_device, offset, size);
  }

  /**
   * Upload with staging overlapped (ABI 1.9): device → host twin of [0, size) in `chunkBytes`
   * pieces (0 = 8 MiB), publishing each on the progress gate — arm it 'upload' first and send
   * the PUT meanwhile: the gateway reads chunk i while chunk i+1 is copied. On failure the gate
   * goes 'failed'. Off the event loop.
   */
  stageToHostOverlapped(size = this.size, chunkBytes = 0): Promise<void> {
    return this.stage(
      'stageToHostOverlapped',
      this.fns.cuobj_client_stage_to_host_overlapped,
      size,
      chunkBytes,
      [0, size],
    );
  }

  /**
   * Download with staging overlapped (ABI 1.9): host twin → device of each `chunkBytes` piece of
   * [0, size) as soon as the gate's landed word passes it — arm it 'download' first, send the
   * GET meanwhile, then publish(size) once the reply came (or arm 'failed': this then rejects
   * with ECANCELED). Off the event loop.
   */
  stageToDeviceOverlapped(size = this.size, chunkBytes = 0): Promise<void> {
    return this.stage(
      'stageToDeviceOverlapped',
      this.fns.cuobj_client_stage_to_device_overlapped,
      size,
      chunkBytes,
      [0, size],
    );
  }

  /**
   * Copies `size` bytes of OTHER device memory at `src` (e.g. a caller's cudaMalloc, not this
   * region) into the host twin at `twinOffset` (cudaMemcpy device → host on the libuv pool):
   * staging from anywhere on the device, for a token over the twin. No registration is made.
   */
  twinFromDevice(src: bigint, size: number, twinOffset = 0): Promise<void> {
    return this.twinCopy('twinFromDevice', src, size, twinOffset, DEVICE_TO_HOST);
  }

  /** The reverse: `size` bytes of the host twin at `twinOffset` → other device memory at `dst`. */
  twinToDevice(dst: bigint, size: number, twinOffset = 0): Promise<void> {
    return this.twinCopy('twinToDevice', dst, size, twinOffset, HOST_TO_DEVICE);
  }

  /** Copies `src` into device memory at `offset` (cudaMemcpy, blocking). */
  copyFromHost(src: Uint8Array, offset = 0): void {
    this.copy('copyFromHost', src, offset, HOST_TO_DEVICE);
  }

  /** Copies device memory at `offset` into `dst` (cudaMemcpy, blocking). */
  copyToHost(dst: Uint8Array, offset = 0): void {
    this.copy('copyToHost', dst, offset, DEVICE_TO_HOST);
  }

  /** Sets [offset, offset+size) of device memory to `value` (cudaMemset, blocking). */
  fill(value: number, offset = 0, size = this.size - offset): void {
    checkWindow('fill', offset, size, this.size);
    this.check(
      'fill',
      this.fns.cuobj_client_cuda_memset(this.client, this.address + BigInt(offset), value & 0xff, size),
    );
  }

  private get fns() {
    return this.lib.fn;
  }

  private copy(what: string, host: Uint8Array, offset: number, dir: number): void {
    if (this.closed) throw new RdmaError(what, errnoOf('EBADF'), 'memory is closed');
    checkWindow(what, offset, host.byteLength, this.size);
    const dev = this.address + BigInt(offset);
    const [dst, src] = dir === HOST_TO_DEVICE ? [dev, host] : [host, dev];
    this.check(what, this.fns.cuobj_client_cuda_memcpy(this.client, dst, src, host.byteLength, dir));
  }

  private twinCopy(what: string, dev: bigint, size: number, twinOffset: number, dir: number): Promise<void> {
    let host: Uint8Array;
    try {
      if (typeof dev !== 'bigint' || dev <= 0n) throw new InvalidArgumentError(`${what}: bad device address`);
      checkWindow(what, twinOffset, size, this.size);
      host = this.stagingBytes.subarray(twinOffset, twinOffset + size);
    } catch (e) {
      return Promise.reject(e);
    }
    const [dst, src] = dir === HOST_TO_DEVICE ? [dev, host] : [host, dev];
    return new Promise((resolve, reject) => {
      this.fns.cuobj_client_cuda_memcpy.async(this.client, dst, src, size, dir, (err, ret) => {
        if (err) return reject(err);
        if (ret >= 0) return resolve();
        // The shim's last-error text is per thread (the pool's): the errno says what failed.
        reject(new RdmaError(what, ret, `cudaMemcpy of ${size} bytes failed`));
      });
    });
  }

  private check(what: string, ret: number): void {
    if (ret < 0) throw new RdmaError(what, ret, this.lib.lastError().message);
  }

  private stage(
    what: string,
    fn: typeof this.fns.cuobj_client_stage_to_host,
    a: number,
    b: number,
    window: readonly [offset: number, size: number] = [a, b],
  ): Promise<void> {
    if (this.closed) return Promise.reject(new RdmaError(what, errnoOf('EBADF'), 'memory is closed'));
    try {
      // (offset, size) for plain stages; (size, chunk) for overlapped ones, whose window starts at 0
      checkWindow(what, window[0], window[1], this.size);
      if (!Number.isSafeInteger(b) || b < 0) throw new InvalidArgumentError(`${what}: bad chunk size ${b}`);
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise((resolve, reject) => {
      fn.async(this.client, this.handle, a, b, (err, ret) => {
        if (err) return reject(err);
        if (ret >= 0) return resolve();
        const msg = Buffer.alloc(MSG_CAP);
        this.fns.cuobj_client_mr_last_stage_error(this.client, this.handle, msg, MSG_CAP);
        const end = msg.indexOf(0);
        reject(new RdmaError(what, ret, msg.toString('utf8', 0, end < 0 ? MSG_CAP : end)));
      });
    });
  }
}
