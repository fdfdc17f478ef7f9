// RdmaServer: the gateway side of every transfer (cuObjServer's shape). It owns registered
// buffers and channels and moves bytes between them and client memory named by a parsed DC v1
// token (@vgwrdma/rdma-protocol; the C side gets its fields as a struct, never the string):
//   handleGet = RDMA WRITE into the client (serves an S3 GET),
//   handlePut = RDMA READ from the client (serves an S3 PUT).
// Transfers are submitted to native worker threads and complete through an eventfd watched on
// the event loop (CompletionQueue), so the loop never blocks and transfers on different channels
// run in parallel. Calls larger than the 1 GiB ABI limit (or `maxBytesPerCall`) are split into
// sequential submits on the same channel.

import { InvalidArgumentError } from '@vgwrdma/errors';
import { koffi } from '@vgwrdma/native';
import type { RdmaToken } from '@vgwrdma/rdma-protocol';
import { errnoOf, RdmaError } from '../errors.js';
import type { CuobjRdmaTunablesStruct, CuobjServerStatsStruct, CuobjTokenStruct } from '../native/layouts.js';
import { type LoadShimOptions, loadShimLibrary, type Ptr, type ShimLibrary } from '../native/shim-library.js';
import { providerName, type RdmaProvider } from '../provider.js';
import { providerUnavailable } from '../provider-status.js';
import { CompletionQueue } from './completion-queue.js';
import { type RdmaBuffer, registerServerBuffer } from './rdma-buffer.js';
import { RdmaChannel } from './rdma-channel.js';
import { applyServerOptions, type RdmaServerOptions, VENDOR_TELEMETRY_FLAGS } from './server-options.js';
import { tokenStruct } from './token-struct.js';

/** CUOBJ_PROTO_RDMA_DC_V1 */
const PROTO_DC_V1 = 1001;
/** CUOBJ_CHANNEL_NONE */
const CHANNEL_NONE = 65535;
/** CUOBJ_MAX_TRANSFER: at most 1 GiB per native call. */
export const MAX_TRANSFER_PER_CALL = 2 ** 30;

/** One transfer between a registered server buffer and the client memory a token names. */
export interface RdmaTransfer {
  /** Local side: a buffer registered with this server. */
  readonly buffer: RdmaBuffer;
  /** Offset into `buffer`; default 0. */
  readonly localOffset?: number;
  /** Bytes to move (> 0). The call succeeds only if exactly this many moved. */
  readonly size: number;
  /** The client's window: a parsed token (override or legacy window applied). */
  readonly token: RdmaToken;
  /** Offset into the token's window (override applied); default 0. */
  readonly remoteOffset?: number;
  /** Channel to use; default: one is taken for this call and returned after. */
  readonly channel?: RdmaChannel;
}

type Direction = 'get' | 'put';

/** Transport counters of a server (cuobj_server_stats_t), monotonic since creation. */
export interface RdmaServerStats {
  /** softnic same-host transfers done with process_vm_readv/writev. */
  readonly directTransfers: number;
  /** softnic transfers done over TCP. */
  readonly tcpTransfers: number;
  readonly directBytes: number;
  readonly tcpBytes: number;
  /** Agent connections opened. */
  readonly connects: number;
  /** Cookie proofs accepted (those connections use the direct path). */
  readonly proofsOk: number;
  /** Direct path offered but not proven (EPERM, another pid namespace). */
  readonly proofsFailed: number;
  /** Transfers that failed after validation. */
  readonly failedTransfers: number;
  /**
   * Proven direct-path connections switched back to TCP because the client process was no longer
   * the one proven (exec, credential change, exit) — see native-shims/SOFTNIC.md.
   */
  readonly directRevoked: number;
}

export class RdmaServer implements Disposable, AsyncDisposable {
  private readonly lib: ShimLibrary;
  private srv: Ptr;
  private readonly queue: CompletionQueue;
  private readonly buffers = new Set<RdmaBuffer>();
  private readonly channels = new Set<RdmaChannel>();
  /** The tunables the server was created with (C defaults + options). */
  readonly tunables: Readonly<CuobjRdmaTunablesStruct>;
  readonly provider: RdmaProvider;
  private readonly maxBytesPerCall: number;

  /**
   * Creates the server. Throws NativeLoadError (no library; VGW_ERR_NATIVE_PROVIDER_UNAVAILABLE: the
   * provider cannot be used here, e.g. cuobj without NVIDIA's library) or RdmaError.
   */
  constructor(options: RdmaServerOptions = {}) {
    this.maxBytesPerCall = options.maxBytesPerCall ?? MAX_TRANSFER_PER_CALL;
    if (
      !Number.isSafeInteger(this.maxBytesPerCall) ||
      this.maxBytesPerCall < 1 ||
      this.maxBytesPerCall > MAX_TRANSFER_PER_CALL
    ) {
      throw new InvalidArgumentError(`maxBytesPerCall must be 1..${MAX_TRANSFER_PER_CALL}`);
    }
    const load: LoadShimOptions = { shimDir: options.shimDir };
    this.lib = loadShimLibrary(load);
    const unavailable = providerUnavailable(this.lib, options.provider ?? 'softnic');
    if (unavailable) throw unavailable; // one sentence naming what is missing, not an errno
    const defaults = {} as CuobjRdmaTunablesStruct;
    this.lib.fn.cuobj_server_tunables_default(defaults);
    this.tunables = applyServerOptions(defaults, options);
    this.srv = this.lib.fn.cuobj_server_create_with_config(
      options.bindAddress ?? null,
      options.port ?? 0,
      PROTO_DC_V1,
      this.tunables,
    );
    if (this.srv === 0n) {
      const { errno, message } = this.lib.lastError();
      throw new RdmaError('createServer', errno || errnoOf('ENODEV'), message);
    }
    this.provider = providerName(this.lib.fn.cuobj_server_provider(this.srv));
    if (this.provider === 'cuobj') {
      // Process-wide in the vendor library (a static of cuObjServer): the last server wins.
      this.lib.fn.cuobj_server_set_telemetry_flags(
        VENDOR_TELEMETRY_FLAGS[options.vendorTelemetry ?? 'errors'],
      );
    }
    try {
      this.queue = new CompletionQueue(this.lib, this.srv, koffi.node.poll);
    } catch (e) {
      this.lib.fn.cuobj_server_destroy(this.srv);
      throw e;
    }
  }

  private get live(): Ptr {
    if (this.srv === 0n) throw new RdmaError('server', errnoOf('EBADF'), 'server is closed');
    return this.srv;
  }

  /** Whether the underlying session is usable (cuObjServer::isConnected). */
  get connected(): boolean {
    return this.srv !== 0n && this.lib.fn.cuobj_server_is_connected(this.srv) === 1;
  }

  /** Channels allocated now (by anyone) and not yet closed. */
  get channelsAllocated(): number {
    return this.channels.size;
  }

  /** Number of channels (ids 0..channelCount-1). */
  get channelCount(): number {
    return this.tunables.num_dcis;
  }

  /** Transfers submitted and not yet completed. */
  get inFlight(): number {
    return this.queue.inFlight;
  }

  /** Transport counters since the server was created (softnic: direct vs TCP transfers, proofs). */
  stats(): RdmaServerStats {
    const raw = {} as CuobjServerStatsStruct;
    const r = this.lib.fn.cuobj_server_get_stats(this.live, raw);
    if (r < 0) throw new RdmaError('getStats', r, this.lib.lastError().message);
    const n = (v: number | bigint) => Number(v);
    return {
      directTransfers: n(raw.direct_transfers),
      tcpTransfers: n(raw.tcp_transfers),
      directBytes: n(raw.direct_bytes),
      tcpBytes: n(raw.tcp_bytes),
      connects: n(raw.connects),
      proofsOk: n(raw.proofs_ok),
      proofsFailed: n(raw.proofs_failed),
      failedTransfers: n(raw.failed_transfers),
      directRevoked: n(this.lib.fn.cuobj_server_direct_revoked(this.live)),
    };
  }

  /** Allocates page-aligned native memory of `size` bytes and registers it. */
  allocateBuffer(size: number): RdmaBuffer {
    const b = registerServerBuffer(this.lib, this.live, size, undefined, (x) => this.buffers.delete(x));
    this.buffers.add(b);
    return b;
  }

  /** Registers caller-owned native memory (it must stay valid until the buffer is closed). */
  registerMemory(address: bigint, size: number): RdmaBuffer {
    if (address === 0n) throw new InvalidArgumentError('registerMemory: NULL address');
    const b = registerServerBuffer(this.lib, this.live, size, address, (x) => this.buffers.delete(x));
    this.buffers.add(b);
    return b;
  }

  /** Takes a free channel, or undefined when all are in use. */
  tryAllocateChannel(): RdmaChannel | undefined {
    const id = this.lib.fn.cuobj_server_allocate_channel(this.live);
    if (id === CHANNEL_NONE) return undefined;
    const c = new RdmaChannel(this.lib, this.srv, id, (x) => this.channels.delete(x));
    this.channels.add(c);
    return c;
  }

  /** Takes a free channel; throws RdmaError EBUSY when all are in use. */
  allocateChannel(): RdmaChannel {
    const c = this.tryAllocateChannel();
    if (!c) throw new RdmaError('allocateChannel', errnoOf('EBUSY'), 'no free channel');
    return c;
  }

  /** RDMA WRITE `size` bytes from the buffer into the client's memory (an S3 GET). Resolves with the bytes moved. */
  handleGet(t: RdmaTransfer): Promise<number> {
    return this.transfer('get', t);
  }

  /** RDMA READ `size` bytes from the client's memory into the buffer (an S3 PUT). Resolves with the bytes moved. */
  handlePut(t: RdmaTransfer): Promise<number> {
    return this.transfer('put', t);
  }

  private async transfer(dir: Direction, t: RdmaTransfer): Promise<number> {
    const op = dir === 'get' ? 'handleGet' : 'handlePut';
    const token = tokenStruct(t.token);
    const localOffset = t.localOffset ?? 0;
    const remoteOffset = t.remoteOffset ?? 0;
    for (const [name, v] of [
      ['size', t.size],
      ['localOffset', localOffset],
      ['remoteOffset', remoteOffset],
    ] as const) {
      if (!Number.isSafeInteger(v) || v < 0 || (name === 'size' && v === 0)) {
        throw new RdmaError(
          op,
          errnoOf('EINVAL'),
          `${name} must be a ${name === 'size' ? 'positive' : 'non-negative'} integer`,
        );
      }
    }
    if (t.buffer.closed) throw new RdmaError(op, errnoOf('EBADF'), 'buffer is closed');
    const channel = t.channel ?? this.allocateChannel();
    try {
      let moved = 0;
      while (moved < t.size) {
        const n = Math.min(this.maxBytesPerCall, t.size - moved);
        moved += await this.submitOne(
          dir,
          op,
          t,
          t.token.remoteAddr,
          token,
          localOffset + moved,
          remoteOffset + moved,
          n,
          channel,
        );
      }
      return moved;
    } finally {
      if (!t.channel) channel.close();
    }
  }

  private submitOne(
    dir: Direction,
    op: string,
    t: RdmaTransfer,
    remoteAddr: bigint,
    token: CuobjTokenStruct,
    localOffset: number,
    remoteOffset: number,
    size: number,
    channel: RdmaChannel,
  ): Promise<number> {
    const srv = this.live;
    const submit =
      dir === 'get' ? this.lib.fn.cuobj_server_submit_get_fields : this.lib.fn.cuobj_server_submit_put_fields;
    const remote = remoteAddr + BigInt(remoteOffset);
    return this.queue
      .run(op, (tag) => submit(srv, t.buffer.handle, localOffset, remote, size, token, channel.id, tag))
      .then((bytes) => {
        // The ABI promises bytes == size or an error; a short count is never success.
        if (bytes !== size)
          throw new RdmaError(op, errnoOf('EIO'), `short transfer: ${bytes} of ${size} bytes`);
        return bytes;
      });
  }

  /**
   * Closes every channel and buffer (deregistered; shim-allocated memory freed) and destroys the
   * server. Throws RdmaError EBUSY while transfers are in flight — await them or use
   * `closeAsync()`. Idempotent.
   */
  close(): void {
    if (this.srv === 0n) return;
    if (this.queue.inFlight > 0) {
      throw new RdmaError(
        'closeServer',
        errnoOf('EBUSY'),
        `${this.queue.inFlight} transfer(s) in flight; use closeAsync()`,
      );
    }
    for (const c of [...this.channels]) c.close();
    for (const b of [...this.buffers]) b.close();
    this.queue.close();
    this.lib.fn.cuobj_server_destroy(this.srv);
    this.srv = 0n;
  }

  /** Waits for transfers in flight to settle, then closes. */
  async closeAsync(): Promise<void> {
    while (this.srv !== 0n && this.queue.inFlight > 0) await this.queue.idle();
    this.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.closeAsync();
  }
}
