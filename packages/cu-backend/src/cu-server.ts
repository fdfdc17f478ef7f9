// CuServer: a Backend decorator that moves object payloads by RDMA when the request carries a
// descriptor (ctx.rdma, set by cu-middleware), and delegates everything else unchanged.
//   PutObject / UploadPart: RDMA READ from the client → the wrapped backend's body (rdma-upload)
//   GetObject (ranges too): the wrapped backend's body → RDMA WRITE to the client (rdma-download)
// Decisions (PROTOCOL.md): declines (pool busy past the wait, no channel, client unreachable, size
// over the limit) answer PUT with 501 + x-amz-rdma-reply 501 and store nothing, and GET with the
// object in the body + x-amz-rdma-reply 501; a failure after acceptance is 500 InternalError and
// a PUT stores nothing; buffer and channel always go back, after the last transfer settled.

import { Readable } from 'node:stream';
import { type BufferLease, type BufferPool, PoolError } from '@vgwrdma/bufferpool';
import type { RdmaChannel, RdmaServer } from '@vgwrdma/rdma-ffi';
import {
  type Backend,
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
} from '@vgwrdma/s3-backend';
import { DelegatingBackend } from './delegating-backend.js';
import { rdmaDownload } from './rdma-download.js';
import { rdmaDownloadAt } from './rdma-download-at.js';
import { RdmaSession } from './rdma-session.js';
import { RdmaUpload } from './rdma-upload.js';
import {
  capacityTooSmall,
  DECLINED_HEADERS,
  type DeclineReason,
  declinedUpload,
  doneHeaders,
  transferFailed,
} from './reply.js';
import { isUnreachable, transferToken } from './transport.js';

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
}

/** Counters of a CuServer (monotonic, except the *InUse gauges). */
export interface CuServerStats {
  readonly rdmaPuts: number;
  readonly rdmaGets: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
  readonly declines: Readonly<Record<DeclineReason, number>>;
  readonly failures: number;
  readonly channelsInUse: number;
  readonly buffersInUse: number;
}

const DEFAULT_CHUNK = 8 * 1024 * 1024;
/** Slices per pool buffer: one on the wire while the others are read, hashed or written. */
const SLICES = 4;

/** Marks a decline inside the acquire path, so both PUT and GET can answer it their way. */
class Declined extends Error {
  constructor(readonly reason: DeclineReason) {
    super(reason);
  }
}

type UploadInput = PutObjectInput | UploadPartInput;

export class CuServer extends DelegatingBackend {
  private readonly server: RdmaServer;
  private readonly pool: BufferPool;
  private readonly options: CuServerOptions;
  private readonly chunkSize: number;
  private channelsInUse = 0;
  private shuttingDown = false;
  private counters = {
    rdmaPuts: 0,
    rdmaGets: 0,
    bytesRead: 0,
    bytesWritten: 0,
    failures: 0,
    declines: {
      'pool-busy': 0,
      'no-channel': 0,
      'transport-unreachable': 0,
      'size-over-limit': 0,
      'shutting-down': 0,
    },
  };

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
  }

  /** The RDMA server CuServer moves data with (read-only use: stats, provider). */
  get rdmaServer(): RdmaServer {
    return this.server;
  }

  /** The buffer pool (read-only use: stats). */
  get bufferPool(): BufferPool {
    return this.pool;
  }

  stats(): CuServerStats {
    return {
      ...this.counters,
      declines: { ...this.counters.declines },
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
    const out = await this.inner.getObject(ctx, input);
    const payload = out.range ? out.range.end - out.range.start + 1 : out.size;
    const status = out.range ? 206 : 200;
    if (payload > d.size) {
      out.body.destroy();
      throw capacityTooSmall(payload, d.size);
    }
    const declined = (reason: DeclineReason): GetObjectOutput => {
      this.counters.declines[reason]++;
      return withHeaders(out, DECLINED_HEADERS);
    };
    if (this.options.maxTransferSize !== undefined && payload > this.options.maxTransferSize)
      return declined('size-over-limit');
    if (payload === 0) {
      out.body.destroy();
      return { ...withHeaders(out, doneHeaders(status, 0)), body: Readable.from([]) };
    }

    let session: RdmaSession;
    try {
      session = await this.openSession(ctx, d, input.key);
    } catch (err) {
      if (err instanceof Declined) return declined(err.reason);
      out.body.destroy();
      throw err;
    }
    if (isPositionalBody(out.body) && payload > 2 * session.chunkSize) this.addSpareLane(session);
    try {
      // A body that reads at positions (a file) fills the slices directly; any other is copied in.
      const moved = isPositionalBody(out.body)
        ? await rdmaDownloadAt(session, out.body, payload, ctx.signal)
        : await rdmaDownload(session, out.body, payload, ctx.signal);
      out.body.destroy(); // read at positions, never to its end: this closes its file
      this.counters.rdmaGets++;
      this.counters.bytesWritten += moved;
      return {
        ...withHeaders(out, { ...doneHeaders(status, moved), 'content-length': '0' }),
        body: Readable.from([]),
      };
    } catch (err) {
      out.body.destroy();
      if (session.moved === 0 && isUnreachable(err, session.moved)) {
        // Nothing reached the client: serve the same object over HTTP instead.
        await this.closeSession(session);
        this.counters.declines['transport-unreachable']++;
        const again = await this.inner.getObject(ctx, {
          ...input,
          conditions: { ...input.conditions, ifMatch: out.etag },
        });
        return withHeaders(again, DECLINED_HEADERS);
      }
      this.counters.failures++;
      if (ctx.signal.aborted) throw ctx.signal.reason ?? err;
      throw isS3Error(err) ? err : transferFailed(err);
    } finally {
      await this.closeSession(session);
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
    if (this.options.maxTransferSize !== undefined && d.size > this.options.maxTransferSize) {
      this.counters.declines['size-over-limit']++;
      throw declinedUpload('size-over-limit');
    }
    let session: RdmaSession;
    try {
      session = await this.openSession(ctx, d, input.key);
    } catch (err) {
      if (!(err instanceof Declined)) throw err;
      this.counters.declines[err.reason]++;
      throw declinedUpload(err.reason);
    }
    const reader = new RdmaUpload(session, d.size);
    try {
      try {
        await reader.prime();
      } catch (err) {
        if (isUnreachable(err, session.moved)) {
          this.counters.declines['transport-unreachable']++;
          throw declinedUpload('transport-unreachable');
        }
        throw err;
      }
      const body = reader.body();
      // A READ failure destroys the body with the RdmaError; the backend sees it through its own
      // iteration, and this listener keeps a backend that has not started reading from turning
      // it into an uncaught 'error' event (one client must never take the gateway down).
      body.on('error', () => {});
      let out: T;
      try {
        out = await call(body, d.size);
      } finally {
        body.destroy();
      }
      // The backend checked the count against contentLength; a short transfer is never success.
      if (session.moved !== d.size)
        throw transferFailed(new Error(`moved ${session.moved} of ${d.size} bytes`));
      this.counters.rdmaPuts++;
      this.counters.bytesRead += d.size;
      return withHeaders(out, doneHeaders(200, d.size));
    } catch (err) {
      if (isS3Error(err) && err.headers['x-amz-rdma-reply'] === '501') throw err; // a decline
      this.counters.failures++;
      // A READ failure surfaces in the backend as a body error (e.g. IncompleteBody): it is ours.
      if (reader.error !== undefined) throw transferFailed(reader.error);
      if (ctx.signal.aborted) throw ctx.signal.reason ?? err;
      throw isS3Error(err) ? err : transferFailed(err);
    } finally {
      reader.stop(); // a slice the backend released late must not start a READ now
      await this.closeSession(session);
    }
  }

  /** A pool buffer and a channel for one request, or Declined. */
  private async openSession(ctx: RequestContext, d: RdmaDescriptor, key: string): Promise<RdmaSession> {
    if (this.shuttingDown) throw new Declined('shutting-down');
    const token = transferToken(d);
    let lease: BufferLease;
    try {
      lease = await this.pool.acquire({
        signal: ctx.signal,
        ...(this.options.poolWaitMs === undefined ? {} : { timeoutMs: this.options.poolWaitMs }),
      });
    } catch (err) {
      if (err instanceof PoolError)
        throw new Declined(err.code === 'POOL_TIMEOUT' ? 'pool-busy' : 'shutting-down');
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
      throw new Declined('no-channel');
    }
    this.channelsInUse++;
    return new RdmaSession(this.server, lease, channel, token, this.chunkSize, key);
  }

  /** A second channel for a large GET, only while every free pool buffer keeps a free channel. */
  private addSpareLane(s: RdmaSession): void {
    // Two lanes need at least three slices (two WRITEs in flight, one read ahead).
    if ((this.options.getLanes ?? 2) < 2 || s.lanes > 1 || s.slices.length < 3) return;
    const freeChannels = this.server.channelCount - this.server.channelsAllocated;
    if (freeChannels - 1 < this.pool.stats().free) return;
    const spare = this.server.tryAllocateChannel();
    if (!spare) return;
    this.channelsInUse++;
    s.addLane(spare);
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

  /** Closes the pool (waiting for leases to come back), then the RDMA server, then the backend. */
  override async shutdown(): Promise<void> {
    this.shuttingDown = true;
    await this.pool.close();
    await this.server.closeAsync();
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
