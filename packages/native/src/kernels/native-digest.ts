// MD5 and SHA-256 off the main thread: the shim's vgw_digest_* (native-shims/src/hash/digest.c,
// which hashes with the OpenSSL already in the process — Node's own) called through koffi's async
// calls, so a large upload's hashes run on libuv pool threads while the event loop reads the
// socket, writes the file and drives RDMA. The same implementation node:crypto uses, so the
// values cannot differ; what changes is which thread pays.
//
// Updates of one digest must run in order, one at a time: each digest keeps a queue and has at
// most one call in flight. Small chunks (socket reads, ~64 KiB) wait until MIN_BATCH_BYTES are
// queued and are then copied into one buffer of up to BATCH_BYTES, so the per-call cost (a thread
// hop each way: ~50 µs of CPU here, measured) is paid per megabyte, not per read; large ones (lent
// RDMA slices) and any chunk with a `done` callback go at once, alone and uncopied. The batch buffers are kept and reused (SCRATCH_KEPT at most): a fresh 4 MiB buffer
// per call is an mmap, 1024 page faults and a munmap, which cost more than the hashing saved on a
// VM where a fresh page takes ~3.5 µs. nativeDigests() answers undefined when the
// library found no OpenSSL; installNativeKernels() then leaves backend-contract hashing inline.
// MD5 goes to the library's multi-buffer engine instead where the CPU has a lockstep kernel
// (md5-engine.ts: many uploads' MD5s on one core) when VGWRDMA_MD5=lanes. Not by default: on the
// H200 host one client's 4 GiB upload (sixteen parts in flight) ran 0.90x as fast on the engine as on
// OpenSSL, because one stream's share of a lockstep pass (~0.3 GB/s) is slower than OpenSSL's one
// stream (~0.55); the engine spends a third less CPU (docs/performance.md), which pays where the
// gateway is CPU-bound (many clients), not where it waits on one.
import type { OffThreadAlgorithm, OffThreadDigest } from '@vgwrdma/backend-contract';
import { InvalidStateError } from '@vgwrdma/errors';
import type { NativeFn, NativeLibrary } from '../shim-library.js';
import { md5Engine } from './md5-engine.js';

const ALGORITHM_IDS: Record<OffThreadAlgorithm, number> = { md5: 1, sha256: 2 };
/** Chunks at least this large are hashed alone, in place; smaller ones are batched. */
const ALONE_BYTES = 1 << 20;
/** Queued small chunks wait for this many bytes before a call (digest() and drained() flush). */
const MIN_BATCH_BYTES = 1 << 20;
/** Most bytes one batched call covers. */
const BATCH_BYTES = 4 << 20;
/** Batch buffers kept for reuse across digests. */
const SCRATCH_KEPT = 8;
const scratch: Buffer[] = [];

function takeScratch(): Buffer {
  return scratch.pop() ?? Buffer.allocUnsafeSlow(BATCH_BYTES);
}

function giveScratch(b: Buffer): void {
  if (scratch.length < SCRATCH_KEPT) scratch.push(b);
}

/** Copies the batch's chunks into a scratch buffer; the view covers them, the buffer goes back. */
function gather(batch: readonly Queued[]): [view: Buffer, scratch: Buffer] {
  const buf = takeScratch();
  let at = 0;
  for (const q of batch) {
    buf.set(q.chunk, at);
    at += q.chunk.length;
  }
  return [buf.subarray(0, at), buf];
}

/** How a NativeDigest reaches its native context: the OpenSSL calls, or the MD5 engine's. */
export interface DigestCalls {
  /** What hashes: 'openssl' or 'md5-lanes' (the engine). */
  readonly kernel: 'openssl' | 'md5-lanes';
  /** Hashes `data` after what `ctx` covered, off the main thread; `done(err, rc)` once (rc 0: ok). */
  update(ctx: unknown, data: Uint8Array, done: (err: unknown, rc: unknown) => void): void;
  /** Writes the digest into `out`; its length, or a negative errno. */
  final(ctx: unknown, out: Buffer): number;
  free(ctx: unknown): void;
}

interface DigestSymbols {
  vgw_digest_available(): number;
  vgw_digest_new: NativeFn;
  vgw_digest_update: NativeFn;
  vgw_digest_final: NativeFn;
  vgw_digest_free: NativeFn;
}

/**
 * A factory of off-thread digests on the library's vgw_digest_* (present from ABI 1.6 on), or
 * undefined when the library found no OpenSSL to hash with.
 */
export function nativeDigests(
  lib: NativeLibrary,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ((algorithm: OffThreadAlgorithm) => OffThreadDigest | undefined) | undefined {
  const sym = lib.bind<DigestSymbols>([
    'int vgw_digest_available(void)',
    'void *vgw_digest_new(int alg)',
    'int vgw_digest_update(void *d, const void *buf, size_t len)',
    'int vgw_digest_final(void *d, void *out, size_t cap)',
    'void vgw_digest_free(void *d)',
  ]);
  if (sym.vgw_digest_available() !== 1) return undefined;
  const calls: DigestCalls = {
    kernel: 'openssl',
    update: (ctx, data, done) => sym.vgw_digest_update.async(ctx, data, data.length, done),
    final: (ctx, out) => sym.vgw_digest_final(ctx, out, out.length) as number,
    free: (ctx) => sym.vgw_digest_free(ctx),
  };
  const md5 = env.VGWRDMA_MD5 === 'lanes' ? md5Engine(lib) : undefined;
  return (algorithm) => {
    const stream = algorithm === 'md5' ? md5?.create() : undefined;
    if (md5 && stream) return new NativeDigest(md5.calls, stream, algorithm);
    const ctx = sym.vgw_digest_new(ALGORITHM_IDS[algorithm]);
    return ctx ? new NativeDigest(calls, ctx, algorithm) : undefined;
  };
}

interface Queued {
  chunk: Uint8Array;
  done: (() => void) | undefined;
}

export class NativeDigest implements OffThreadDigest {
  private queue: Queued[] = [];
  private pending = 0;
  /** Bytes in the queue (not yet in a call), and how many queued chunks wait for `done`. */
  private queuedBytes = 0;
  private queuedWaiting = 0;
  private running = false;
  private closing = false;
  private disposed = false;
  private freed = false;
  private failure: Error | undefined;
  private waiters: { limit: number; resolve: () => void }[] = [];

  constructor(
    private readonly calls: DigestCalls,
    private readonly ctx: unknown,
    private readonly algorithm: OffThreadAlgorithm,
  ) {}

  get pendingBytes(): number {
    return this.pending;
  }

  /** What hashes this digest. */
  get kernel(): DigestCalls['kernel'] {
    return this.calls.kernel;
  }

  update(chunk: Uint8Array, done?: () => void): void {
    if (this.closing || this.disposed)
      throw new InvalidStateError(`${this.algorithm} digest updated after it ended`);
    if (chunk.length === 0 || this.failure) {
      done?.();
      return;
    }
    this.queue.push({ chunk, done });
    this.pending += chunk.length;
    this.queuedBytes += chunk.length;
    if (done) this.queuedWaiting++;
    this.pump(false);
  }

  drained(limit = 0): Promise<void> {
    if (this.pending <= limit || this.disposed) return Promise.resolve();
    this.pump(true);
    return new Promise((resolve) => this.waiters.push({ limit, resolve }));
  }

  async digest(): Promise<Buffer> {
    if (this.closing || this.disposed) throw new InvalidStateError(`${this.algorithm} digest ended twice`);
    this.closing = true;
    try {
      await this.drained(0);
      if (this.failure) throw this.failure;
      if (this.disposed) throw new InvalidStateError(`${this.algorithm} digest disposed before it ended`);
      const out = Buffer.alloc(32);
      const n = this.calls.final(this.ctx, out);
      if (n <= 0) throw new Error(`native ${this.algorithm} final failed (${n})`);
      return out.subarray(0, n);
    } finally {
      this.dispose();
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.drop();
    if (!this.running) this.free();
  }

  /** Starts the next call, unless one runs or (not forced) too little is queued to be worth it. */
  private pump(force: boolean): void {
    if (this.running || this.queue.length === 0 || this.disposed) return;
    const worth = force || this.closing || this.queuedWaiting > 0 || this.queuedBytes >= MIN_BATCH_BYTES;
    if (!worth) return;
    const batch = this.takeBatch();
    const [data, used] = batch.length === 1 ? [(batch[0] as Queued).chunk, undefined] : gather(batch);
    this.running = true;
    // koffi does not keep `data` alive: the callback below references what backs it (the batch's
    // chunks, or the scratch buffer the view is cut from), so the collector cannot free it early.
    this.calls.update(this.ctx, data, (err: unknown, rc: unknown) => {
      this.running = false;
      if (used) giveScratch(used);
      for (const q of batch) this.settle(q);
      if (err || rc !== 0)
        this.fail(new Error(`native ${this.algorithm} update failed: ${String(err ?? rc)}`));
      if (this.disposed) this.free();
      else this.pump(this.waiters.length > 0);
      this.wake();
    });
  }

  /** The next call's chunks: one large chunk alone, or small ones up to BATCH_BYTES. */
  private takeBatch(): Queued[] {
    const first = this.dequeue();
    const batch = [first];
    if (first.chunk.length >= ALONE_BYTES) return batch;
    let bytes = first.chunk.length;
    for (let next = this.queue[0]; next !== undefined; next = this.queue[0]) {
      if (next.chunk.length >= ALONE_BYTES || bytes + next.chunk.length > BATCH_BYTES) break;
      batch.push(this.dequeue());
      bytes += next.chunk.length;
    }
    return batch;
  }

  private dequeue(): Queued {
    const q = this.queue.shift() as Queued;
    this.queuedBytes -= q.chunk.length;
    if (q.done) this.queuedWaiting--;
    return q;
  }

  private settle(q: Queued): void {
    this.pending -= q.chunk.length;
    q.done?.();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.drop();
  }

  /** Settles every queued chunk without hashing it. */
  private drop(): void {
    const queued = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    this.queuedWaiting = 0;
    for (const q of queued) this.settle(q);
    this.wake();
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => this.disposed || this.pending <= w.limit);
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }

  private free(): void {
    if (this.freed) return;
    this.freed = true;
    this.calls.free(this.ctx);
  }
}
