// CuServer: a Backend decorator that moves object payloads by RDMA when the request carries a
// descriptor (ctx.rdma, granted at the HTTP edge by the RDMA plugin: rdma-grant.ts), and
// delegates everything else unchanged.
//   PutObject / UploadPart: RDMA READ from the client → the wrapped backend's body (rdma-upload)
//   GetObject (ranges too): the wrapped backend's body → RDMA WRITE to the client (rdma-download)
// Decisions (docs/protocol.md): declines (declined at the edge: anonymous request; agent at its cap,
// pool busy past the wait, no channel, client unreachable, size over the limit) answer PUT with
// 501 + x-amz-rdma-reply 501 and store nothing, and GET with the object in the body +
// x-amz-rdma-reply 501; the agent address policy is the edge's (403 there); a PUT over 5 GiB is
// EntityTooLarge before any byte moves; a signed payload hash is checked against the bytes read
// (XAmzContentSHA256Mismatch); a transfer past its deadline is abandoned (400 RequestTimeout); a
// failure after acceptance is 500 InternalError; a PUT that fails stores nothing; buffer and
// channel always go back, after the last native transfer settled.

import { Readable } from 'node:stream';
import {
  type Backend,
  DelegatingBackend,
  type GetObjectInput,
  type GetObjectOutput,
  isPositionalBody,
  isS3Error,
  type PutObjectInput,
  type PutObjectOutput,
  type RdmaDescriptor,
  type RequestContext,
  type UploadPartInput,
  type UploadPartOutput,
} from '@vgwrdma/backend-contract';
import { type BufferLease, type BufferPool, PoolError } from '@vgwrdma/bufferpool';
import { VgwrdmaError } from '@vgwrdma/errors';
import type { RdmaChannel, RdmaServer } from '@vgwrdma/rdma-ffi';
import {
  DECLINED_REPLY,
  type DeclineReason,
  declinedHeaders,
  doneHeaders,
  REPLY_HEADER,
} from '@vgwrdma/rdma-protocol';
import { Admission } from './admission.js';
import { AgentSlots } from './agent-slots.js';
import { rdmaDownload } from './rdma-download.js';
import { rdmaDownloadAt } from './rdma-download-at.js';
import { capacityTooSmall, declinedUpload, transferFailed } from './rdma-errors.js';
import { rdmaRecordOf } from './rdma-grant.js';
import { RdmaSession } from './rdma-session.js';
import { RdmaUpload } from './rdma-upload.js';
import { takeSpareLane } from './spare-lane.js';
import type { TransferListener } from './transfer-events.js';
import { type TransferCounts, TransferLedger } from './transfer-ledger.js';
import { transferDeadlineMs, transferTimedOut, uploadTooLarge } from './transfer-limits.js';
import { isUnreachable } from './transport.js';

export interface CuServerOptions {
  /** The transport; CuServer owns it from now on (shutdown() closes it). */
  readonly server: RdmaServer;
  /** Buffers registered with `server`; CuServer owns the pool (shutdown() closes it). */
  readonly pool: BufferPool;
  /** Longest wait for a pool buffer before declining; default: the pool's default wait. */
  readonly poolWaitMs?: number;
  /** Largest payload moved by RDMA; larger requests are declined. Default: no limit but the token's. */
  readonly maxTransferSize?: number;
  /** Bytes per RDMA transfer (a pool buffer holds up to four for pipelining); default min(8 MiB, buffer/4). */
  readonly chunkSize?: number;
  /**
   * Channels one large GET may use at once (1 or 2; default 2). The second is taken only while
   * every free pool buffer still has a free channel after it (each request needs one of each), so
   * it never makes another request decline for want of a channel — which needs more channels than
   * buffers (the app's defaults: 128 and 4). With softnic each channel is a copy thread, so a GET
   * moves up to ~2× as fast on a host with cores to spare.
   */
  readonly getLanes?: 1 | 2;
  /**
   * Channels one large PUT / UploadPart may READ on at once (1 or 2; default 2), under the same
   * rule as getLanes: the second only while every free pool buffer still keeps a free channel.
   */
  readonly putLanes?: 1 | 2;
  /** Base of each transfer's deadline in ms; the deadline is this + size at 50 MB/s. Default 30000. */
  readonly transferTimeoutMs?: number;
  /** Transfers one agent (address:port) may run at once; beyond it a request is declined. Default ⌈buffers / 2⌉. */
  readonly maxPerAgent?: number;
}

/** Counters of a CuServer (monotonic, except the *InUse gauges). */
export interface CuServerStats extends TransferCounts {
  readonly channelsInUse: number;
  readonly buffersInUse: number;
}

const DEFAULT_CHUNK = 8 * 1024 * 1024;
/** BufferPool's own default wait, used for the agent-slot wait when no poolWaitMs is given. */
const DEFAULT_POOL_WAIT_MS = 1000;
/** Slices per pool buffer: one on the wire while the others are read, hashed or written. */
const SLICES = 4;

/** Marks a decline inside the acquire path, so both PUT and GET can answer it their way. */
class RdmaDeclinedError extends VgwrdmaError<'VGW_ERR_RDMA_DECLINED'> {
  override readonly name = 'RdmaDeclinedError';
  constructor(readonly reason: DeclineReason) {
    super('VGW_ERR_RDMA_DECLINED', `RDMA declined: ${reason}`);
  }
}

type UploadInput = PutObjectInput | UploadPartInput;

export class CuServer extends DelegatingBackend {
  private readonly server: RdmaServer;
  private readonly pool: BufferPool;
  private readonly options: CuServerOptions;
  private readonly chunkSize: number;
  private readonly admission: Admission;
  private channelsInUse = 0;
  private shuttingDown = false;
  private readonly ledger = new TransferLedger();

  constructor(options: CuServerOptions, backend: Backend) {
    super(backend, `cuserver(${backend.name})`);
    this.server = options.server;
    this.pool = options.pool;
    this.options = options;
    const chunk =
      options.chunkSize ?? Math.min(DEFAULT_CHUNK, Math.max(1, Math.floor(options.pool.bufferSize / SLICES)));
    if (!Number.isSafeInteger(chunk) || chunk <= 0)
      throw new RangeError(`chunkSize must be a positive integer, got ${chunk}`);
    this.chunkSize = Math.min(chunk, options.pool.bufferSize);
    const perAgent = options.maxPerAgent ?? Math.ceil(options.pool.count / 2);
    this.admission = new Admission(new AgentSlots(perAgent));
  }

  /** The RDMA server CuServer moves data with (read-only use: stats, provider). */
  get rdmaServer(): RdmaServer {
    return this.server;
  }

  /** The buffer pool (read-only use: stats). */
  get bufferPool(): BufferPool {
    return this.pool;
  }

  /** Calls `listener` with every transfer's outcome; returns the function that stops it. */
  onTransfer(listener: TransferListener): () => void {
    return this.ledger.onTransfer(listener);
  }

  stats(): CuServerStats {
    return {
      ...this.ledger.snapshot(),
      channelsInUse: this.channelsInUse,
      buffersInUse: this.pool.stats().inUse,
    };
  }

  override putObject(ctx: RequestContext, input: PutObjectInput): Promise<PutObjectOutput> {
    if (!ctx.rdma) return this.inner.putObject(ctx, input);
    return this.upload(ctx, ctx.rdma, input, (body, contentLength) =>
      this.inner.putObject(ctx, { ...input, body, contentLength }),
    );
  }

  override uploadPart(ctx: RequestContext, input: UploadPartInput): Promise<UploadPartOutput> {
    if (!ctx.rdma) return this.inner.uploadPart(ctx, input);
    return this.upload(ctx, ctx.rdma, input, (body, contentLength) =>
      this.inner.uploadPart(ctx, { ...input, body, contentLength }),
    );
  }

  override async getObject(ctx: RequestContext, input: GetObjectInput): Promise<GetObjectOutput> {
    const d = ctx.rdma;
    if (!d) return this.inner.getObject(ctx, input);
    const started = performance.now();
    const admitted = await this.admission.admit(ctx, { timeoutMs: this.slotWaitMs });
    if (admitted.kind === 'declined') {
      this.ledger.record(ctx, 'get', started, {
        outcome: 'declined',
        reason: admitted.reason,
        bytes: 0,
        lanes: 0,
      });
      return withHeaders(await this.inner.getObject(ctx, input), declinedHeaders(admitted.reason));
    }
    return this.getByRdma(ctx, d, input, admitted.release, started);
  }

  /** GetObject once admitted; `release` gives the agent's slot back (every path calls it). */
  private async getByRdma(
    ctx: RequestContext,
    d: RdmaDescriptor,
    input: GetObjectInput,
    release: () => void,
    started: number,
  ): Promise<GetObjectOutput> {
    let out: GetObjectOutput;
    try {
      out = await this.inner.getObject(ctx, input);
    } catch (err) {
      release();
      throw err;
    }
    const payload = out.range ? out.range.end - out.range.start + 1 : out.size;
    const status = out.range ? 206 : 200;
    if (payload > d.token.length) {
      release();
      out.body.destroy();
      throw capacityTooSmall(payload, d.token.length);
    }
    const declined = (reason: DeclineReason): GetObjectOutput => {
      this.ledger.record(ctx, 'get', started, { outcome: 'declined', reason, bytes: 0, lanes: 0 });
      return withHeaders(out, declinedHeaders(reason));
    };
    if (this.options.maxTransferSize !== undefined && payload > this.options.maxTransferSize) {
      release();
      return declined('size-over-limit');
    }
    if (payload === 0) {
      release();
      out.body.destroy();
      this.ledger.record(ctx, 'get', started, { outcome: 'done', bytes: 0, lanes: 0 });
      return { ...withHeaders(out, doneHeaders(status, 0)), body: Readable.from([]) };
    }

    let session: RdmaSession;
    try {
      session = await this.openSession(ctx, d);
    } catch (err) {
      release();
      if (err instanceof RdmaDeclinedError) return declined(err.reason);
      out.body.destroy();
      throw err;
    }
    if (isPositionalBody(out.body)) this.addSpareLane(session, payload, this.options.getLanes);
    const stopClock = this.startDeadline(session, payload);
    try {
      // A body that reads at positions (a file) fills the slices directly; any other is copied in.
      const moved = isPositionalBody(out.body)
        ? await rdmaDownloadAt(session, out.body, payload, ctx.signal)
        : await rdmaDownload(session, out.body, payload, ctx.signal);
      out.body.destroy(); // read at positions, never to its end: this closes its file
      this.ledger.record(ctx, 'get', started, { outcome: 'done', bytes: moved, lanes: session.lanes });
      return {
        ...withHeaders(out, { ...doneHeaders(status, moved), 'content-length': '0' }),
        body: Readable.from([]),
      };
    } catch (err) {
      out.body.destroy();
      if (session.abandoned !== undefined) {
        this.ledger.record(ctx, 'get', started, { outcome: 'failed', bytes: 0, lanes: session.lanes }, true);
        throw session.abandoned;
      }
      if (session.moved === 0 && isUnreachable(err, session.moved)) {
        // Nothing reached the client: serve the same object over HTTP instead.
        await this.closeSession(session);
        const reason = 'transport-unreachable';
        this.ledger.record(ctx, 'get', started, { outcome: 'declined', reason, bytes: 0, lanes: 0 });
        const again = await this.inner.getObject(ctx, {
          ...input,
          conditions: { ...input.conditions, ifMatch: out.etag },
        });
        return withHeaders(again, declinedHeaders(reason));
      }
      this.ledger.record(ctx, 'get', started, { outcome: 'failed', bytes: 0, lanes: session.lanes });
      if (ctx.signal.aborted) throw ctx.signal.reason ?? err;
      throw isS3Error(err) ? err : transferFailed(err);
    } finally {
      stopClock();
      await this.endSession(session, release);
    }
  }

  /** PUT / UploadPart by RDMA READ; `call` runs the wrapped backend's operation on the body. */
  private async upload<T extends PutObjectOutput | UploadPartOutput>(
    ctx: RequestContext,
    d: RdmaDescriptor,
    input: UploadInput,
    call: (body: Readable, contentLength: number) => Promise<T>,
  ): Promise<T> {
    input.body.resume(); // the HTTP body is empty (cu-middleware refused any other); let it end
    const started = performance.now();
    const decline = (reason: DeclineReason) => {
      this.ledger.record(ctx, 'put', started, { outcome: 'declined', reason, bytes: 0, lanes: 0 });
      return declinedUpload(reason);
    };
    const grant = rdmaRecordOf(d)?.grant;
    if (grant?.kind !== 'granted') throw decline('anonymous'); // before any other answer
    const tooLarge = uploadTooLarge(d.token.length);
    if (tooLarge) throw tooLarge;
    if (this.options.maxTransferSize !== undefined && d.token.length > this.options.maxTransferSize)
      throw decline('size-over-limit');
    const admitted = await this.admission.admit(ctx, { timeoutMs: this.slotWaitMs });
    if (admitted.kind === 'declined') throw decline(admitted.reason);
    let session: RdmaSession;
    try {
      session = await this.openSession(ctx, d);
    } catch (err) {
      admitted.release();
      if (!(err instanceof RdmaDeclinedError)) throw err;
      throw decline(err.reason);
    }
    this.addSpareLane(session, d.token.length, this.options.putLanes);
    const stopClock = this.startDeadline(session, d.token.length);
    const reader = new RdmaUpload(session, d.token.length, grant.payloadSha256);
    try {
      try {
        await reader.prime();
      } catch (err) {
        if (isUnreachable(err, session.moved)) throw decline('transport-unreachable');
        throw err;
      }
      const body = reader.body();
      // A READ failure destroys the body with the RdmaError; the backend sees it through its own
      // iteration, and this listener keeps a backend that has not started reading from turning
      // it into an uncaught 'error' event (one client must never take the gateway down).
      body.on('error', () => {});
      let out: T;
      try {
        out = await call(body, d.token.length);
      } finally {
        body.destroy();
      }
      // The backend checked the count against contentLength; a short transfer is never success.
      if (session.moved !== d.token.length)
        throw transferFailed(new Error(`moved ${session.moved} of ${d.token.length} bytes`));
      this.ledger.record(ctx, 'put', started, {
        outcome: 'done',
        bytes: d.token.length,
        lanes: session.lanes,
      });
      return withHeaders(out, doneHeaders(200, d.token.length));
    } catch (err) {
      if (isS3Error(err) && err.headers[REPLY_HEADER] === DECLINED_REPLY) throw err; // a decline
      const timedOut = session.abandoned !== undefined;
      this.ledger.record(
        ctx,
        'put',
        started,
        { outcome: 'failed', bytes: 0, lanes: session.lanes },
        timedOut,
      );
      if (timedOut) throw session.abandoned;
      if (reader.mismatch) throw reader.mismatch; // the signed payload hash: nothing was stored
      // A READ failure surfaces in the backend as a body error (e.g. IncompleteBody): it is ours.
      if (reader.error !== undefined) throw transferFailed(reader.error);
      if (ctx.signal.aborted) throw ctx.signal.reason ?? err;
      throw isS3Error(err) ? err : transferFailed(err);
    } finally {
      reader.stop(); // a slice the backend released late must not start a READ now
      reader.dispose();
      await reader.hashSettled(); // a native hash still reading a lent slice keeps the lease
      stopClock();
      await this.endSession(session, admitted.release);
    }
  }

  /**
   * Arms the session's deadline (base + size at the minimum rate): past it, the session is
   * abandoned — its transfers reject with RequestTimeout and the request answers at once. Returns
   * the function that disarms it.
   */
  private startDeadline(session: RdmaSession, size: number): () => void {
    const ms = transferDeadlineMs(size, this.options.transferTimeoutMs);
    const timer = setTimeout(() => session.abandon(transferTimedOut(ms)), ms);
    return () => clearTimeout(timer);
  }

  /**
   * Returns the session's buffer, channels and agent slot. A live session's are returned before
   * the request answers; an abandoned one's only once its native transfers ended (a transfer on
   * the wire may still write into the buffer), in the background, so the request does not wait.
   */
  private async endSession(session: RdmaSession, release: () => void): Promise<void> {
    const close = this.closeSession(session).finally(release);
    if (session.abandoned === undefined) return close;
    close.catch(() => {}); // closeSession waits for settle(); freeing can no longer fail after it
  }

  /** How long a request over its agent's cap waits for a slot: as long as for a pool buffer. */
  private get slotWaitMs(): number {
    return this.options.poolWaitMs ?? DEFAULT_POOL_WAIT_MS;
  }

  /** A pool buffer and a channel for one request, or RdmaDeclinedError. */
  private async openSession(ctx: RequestContext, d: RdmaDescriptor): Promise<RdmaSession> {
    if (this.shuttingDown) throw new RdmaDeclinedError('shutting-down');
    let lease: BufferLease;
    try {
      lease = await this.pool.acquire({
        signal: ctx.signal,
        ...(this.options.poolWaitMs === undefined ? {} : { timeoutMs: this.options.poolWaitMs }),
      });
    } catch (err) {
      if (err instanceof PoolError)
        throw new RdmaDeclinedError(err.code === 'VGW_ERR_POOL_TIMEOUT' ? 'pool-busy' : 'shutting-down');
      throw err;
    }
    let channel: RdmaChannel | undefined;
    try {
      channel = this.server.tryAllocateChannel();
    } catch (err) {
      lease.release();
      throw err;
    }
    if (!channel) {
      lease.release();
      throw new RdmaDeclinedError('no-channel');
    }
    this.channelsInUse++;
    return new RdmaSession(this.server, lease, channel, d.token, this.chunkSize);
  }

  /** A second channel for a large transfer, by the rule of spare-lane.ts. */
  private addSpareLane(s: RdmaSession, payload: number, wanted: 1 | 2 | undefined): void {
    if (takeSpareLane(this.server, this.pool, s, payload, wanted)) this.channelsInUse++;
  }

  /** Returns the session's buffer and channels once their last transfers settled. Idempotent. */
  private async closeSession(s: RdmaSession): Promise<void> {
    await s.settle();
    for (const c of s.channels) {
      if (c.closed) continue;
      c.close();
      this.channelsInUse--;
    }
    s.lease.release();
  }

  /**
   * Declines new transfers, closes the pool (waiting for leases to come back), then the RDMA
   * server; the wrapped backend stays open. Idempotent. rdmaPlugin's shutdown() calls it.
   */
  async closeRdma(): Promise<void> {
    this.shuttingDown = true;
    await this.pool.close();
    await this.server.closeAsync();
  }

  /** closeRdma(), then the wrapped backend's shutdown(). */
  override async shutdown(): Promise<void> {
    await this.closeRdma();
    await this.inner.shutdown();
  }
}

/** `out` with extra response headers merged over its own. */
function withHeaders<T extends { responseHeaders?: Record<string, string> }>(
  out: T,
  headers: Readonly<Record<string, string>>,
): T {
  return { ...out, responseHeaders: { ...out.responseHeaders, ...headers } };
}
