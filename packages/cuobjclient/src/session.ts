// Session: one registered buffer of a fixed size, reused for many sequential transfers through
// an ordinary S3Client. upload() has the gateway RDMA-READ the buffer (empty PUT body, signed
// token); download() has it RDMA-WRITE the object into the buffer. One transfer at a time: a
// concurrent call is refused with VGW_ERR_CUOBJ_SESSION_BUSY rather than letting two gateways write
// the same memory. A fresh token is minted per request (docs/protocol.md "Client rules").
// memory: 'cuda' sessions move objects into and out of GPU memory; over softnic the bytes are
// staged through a pinned host twin (session-buffer.ts), invisibly to the caller.

import {
  GetObjectCommand,
  type GetObjectCommandInput,
  type GetObjectCommandOutput,
  PutObjectCommand,
  type PutObjectCommandInput,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { GpuClient, HostClient, HostClientOptions, StagingOptions } from '@vgwrdma/rdma-ffi';
import { CHECKSUMS, type ChecksumAlgorithm, checksumHeader } from './checksum.js';
import { CuObjError } from './errors.js';
import { discardBody, drainBody, readBodyInto } from './http-body.js';
import { gatewayAnswer, judgeFailure, judgeSuccess } from './judge-reply.js';
import { openBuffer, type SessionMemory } from './open-buffer.js';
import { type RawAnswer, RdmaRequestError, sendWithRdma } from './rdma-request.js';
import type { DownloadStaging, SessionBuffer } from './session-buffer.js';
import { checkSessionSize } from './session-size.js';
import { declined, isServiceError, result, type TransferResult } from './transfer-result.js';

export type { SessionMemory, TransferResult };

/** 'cuda' sessions: the staging between device and pinned host memory. */
export interface SessionStagingOptions extends StagingOptions {
  /**
   * Overlap staging with the transfer (default true, softnic): an upload's gateway reads chunk i
   * while chunk i+1 is staged, a download's landed chunks go to the device while later ones
   * arrive. false: the whole object is staged before the PUT / after the GET. Uploads with
   * `checksum` stage first regardless (the checksum header covers all the bytes).
   */
  readonly overlap?: boolean;
  /** Bytes per overlapped staging chunk; default 8 MiB, at least 64 KiB. */
  readonly overlapChunkBytes?: number;
  /**
   * Overlapped uploads: the gateway's READ of bytes not yet staged fails after this long without
   * progress (the upload then fails, naming the stall); default 5000 ms. Keep it below the
   * gateway's softnic io timeout (10 s by default).
   */
  readonly stallTimeoutMs?: number;
}

export interface SessionOptions {
  /** Bytes per transfer; every upload/download moves exactly this many. */
  readonly size: number;
  /**
   * 'host' (default): registered host memory (`session.buffer`). 'cuda': CUDA device memory
   * (`session.devicePtr`), staged through pinned host memory over softnic. Needs a CUDA runtime
   * and device, else VGW_ERR_CUOBJ_UNAVAILABLE.
   */
  readonly memory?: SessionMemory;
  /** 'cuda': device ordinal (default 0). */
  readonly device?: number;
  /** 'cuda': use this device allocation (your cudaMalloc, `size` bytes) instead of allocating one. */
  readonly devicePtr?: bigint;
  /** 'cuda': CUDA runtime to load (default $VGWRDMA_CUDA_LIB, else libcudart.so / .so.13 / .so.12). */
  readonly cudaLibrary?: string;
  /** 'cuda': how device ↔ host staging copies are split, and whether they overlap the transfer. */
  readonly staging?: SessionStagingOptions;
  /** Upper bound for `size`; default 1 GiB, at most 4 GiB − 64 KiB (the token capacity). */
  readonly maxSize?: number;
  /** 'none' (default): a declined RDMA request is an error. 'http': move the data in the HTTP body instead. */
  readonly fallback?: 'none' | 'http';
  /**
   * Send x-amz-checksum-<algo> over the raw buffer with every upload (the gateway verifies it),
   * and on downloads ask for the object's checksum and check what arrived by RDMA against it.
   */
  readonly checksum?: ChecksumAlgorithm;
  /** Transport settings; they win over the environment (see README, "Configuration"). */
  readonly host?: Omit<HostClientOptions, 'shimDir'>;
  /** Directory of libvgwrdma_shims.so (else VGWRDMA_SHIM_DIR, the platform package, the repo build). */
  readonly shimDir?: string;
  /** Environment to read settings from; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Extra PutObject / GetObject parameters. Bucket, Key and Body are the session's; body checksums
 * and lengths describe the empty HTTP body of an RDMA PUT, so they are not accepted here (use
 * the `checksum` option, which covers the raw buffer).
 */
export type UploadInput = Omit<
  PutObjectCommandInput,
  | 'Bucket'
  | 'Key'
  | 'Body'
  | 'ContentLength'
  | 'ContentMD5'
  | 'ChecksumAlgorithm'
  | 'ChecksumCRC32'
  | 'ChecksumCRC32C'
  | 'ChecksumCRC64NVME'
  | 'ChecksumSHA1'
  | 'ChecksumSHA256'
>;
export type DownloadInput = Omit<GetObjectCommandInput, 'Bucket' | 'Key'>;

export class Session implements Disposable, AsyncDisposable {
  /** Bytes per transfer. */
  readonly size: number;
  readonly memory: SessionMemory;
  private readonly options: SessionOptions;
  private client: HostClient | GpuClient | undefined;
  private mem: SessionBuffer | undefined;
  private inFlight: Promise<unknown> | undefined;

  private constructor(options: SessionOptions, client: HostClient | GpuClient, mem: SessionBuffer) {
    this.size = options.size;
    this.memory = mem.kind;
    this.options = options;
    this.client = client;
    this.mem = mem;
  }

  /**
   * Opens a session: loads the native shim, starts the transport client and registers `size`
   * bytes. Throws CuObjError VGW_ERR_CUOBJ_UNAVAILABLE naming what is missing (platform, shim
   * library, memory kind) and VGW_ERR_CUOBJ_INVALID_OPTION for bad options or environment values.
   */
  static async open(options: SessionOptions): Promise<Session> {
    checkSessionSize(options.size, options.maxSize);
    const { client, buffer } = openBuffer(options);
    return new Session(options, client, buffer);
  }

  /** The registered memory (no copy). Fill it before upload(); read it after download(). Host sessions only. */
  get buffer(): Uint8Array {
    const mem = this.live();
    if (mem.kind === 'cuda')
      throw new CuObjError(
        'VGW_ERR_CUOBJ_WRONG_MEMORY',
        "a memory: 'cuda' session has no host buffer: use devicePtr, copyToDevice() and copyFromDevice()",
      );
    return mem.staged;
  }

  /** The device memory of a memory: 'cuda' session (a CUDA device pointer; not CPU-addressable). */
  get devicePtr(): bigint {
    return this.deviceMemory('devicePtr').devicePtr;
  }

  /** 'cuda' sessions: copies host bytes into device memory at `offset` (cudaMemcpy; for filling and tests). */
  copyToDevice(src: Uint8Array, offset = 0): void {
    this.deviceMemory('copyToDevice').copyFromHost(src, offset);
  }

  /** 'cuda' sessions: copies device memory at `offset` into `dst` (cudaMemcpy; for checking and tests). */
  copyFromDevice(dst: Uint8Array, offset = 0): void {
    this.deviceMemory('copyFromDevice').copyToHost(dst, offset);
  }

  /** 'cuda' sessions: the GPU, e.g. "NVIDIA H200 (device 0 of 1), runtime 13000, driver 13000, libcudart.so". */
  describeDevice(): string {
    this.deviceMemory('describeDevice');
    return (this.client as GpuClient).describeCuda();
  }

  /** Whether close() has run. */
  get closed(): boolean {
    return this.mem === undefined;
  }

  /**
   * Uploads `src` (default: the session buffer) to bucket/key by RDMA READ. `src` must be exactly
   * `size` bytes; it is copied into the registered buffer first.
   */
  upload(
    s3: S3Client,
    bucket: string,
    key: string,
    src?: Uint8Array,
    input: UploadInput = {},
  ): Promise<TransferResult> {
    return this.exclusive(async (mem) => {
      if (src !== undefined) this.checkLength('upload source', src);
      // A checksum header covers every byte: it needs them staged before the request.
      const staging = await mem.startUpload(src, this.options.checksum === undefined);
      const buf = mem.staged;
      const region = mem.region;
      const checksum =
        this.options.checksum === undefined ? undefined : checksumHeader(this.options.checksum, buf);
      const token = region.token(0, this.size, 'put');
      const command = new PutObjectCommand({ ...input, Bucket: bucket, Key: key, Body: new Uint8Array(0) });
      try {
        const sent = await sendWithRdma(s3, command, { token, checksum }).finally(() => staging.abandon());
        const stagingMs = await staging.done;
        const { output, answer } = sent;
        const verdict = judgeSuccess('put', answer, this.size);
        if (verdict === 'no-reply') {
          throw new CuObjError('VGW_ERR_CUOBJ_NO_RDMA_REPLY', 'PUT: gateway did not confirm RDMA offload', {
            gateway: gatewayAnswer(answer),
          });
        }
        return result('rdma', this.size, answer, output.ETag, mem.kind === 'cuda' ? stagingMs : undefined);
      } catch (err) {
        await staging.done; // a staging failure is what went wrong, not the gateway's refusal of it
        if (!(err instanceof RdmaRequestError)) throw err;
        if (err.answer === undefined && !isServiceError(err.cause)) throw err.cause; // network / client-side
        judgeFailure('put', err.answer, err.cause); // throws unless declined
        if (this.options.fallback !== 'http') throw declined('PUT', err.answer, err.cause);
        return this.putOverHttp(s3, bucket, key, buf, input);
      }
    });
  }

  /**
   * Downloads bucket/key by RDMA WRITE into the session buffer, then copies it into `dst` when one
   * is given. The object must be exactly `size` bytes (a shorter one is a byte-count error).
   */
  download(
    s3: S3Client,
    bucket: string,
    key: string,
    dst?: Uint8Array,
    input: DownloadInput = {},
  ): Promise<TransferResult> {
    return this.exclusive(async (mem) => {
      if (dst !== undefined) this.checkLength('download destination', dst);
      const buf = mem.staged;
      const token = mem.region.token(0, this.size, 'get');
      const mode = this.options.checksum === undefined ? {} : { ChecksumMode: 'ENABLED' as const };
      const command = new GetObjectCommand({ ...mode, ...input, Bucket: bucket, Key: key });
      const staging = mem.startDownload(true);
      try {
        return await this.receive(s3, command, token, staging, buf, dst);
      } catch (err) {
        await staging.abandon();
        throw err;
      }
    });
  }

  /** A download's request and verdict; `staging` brings the landed bytes to where they belong. */
  private async receive(
    s3: S3Client,
    command: GetObjectCommand,
    token: string,
    staging: DownloadStaging,
    buf: Uint8Array,
    dst: Uint8Array | undefined,
  ): Promise<TransferResult> {
    const cuda = this.memory === 'cuda';
    let sent: { output: GetObjectCommandOutput; answer: RawAnswer };
    try {
      sent = await sendWithRdma(s3, command, { token });
    } catch (err) {
      if (!(err instanceof RdmaRequestError)) throw err;
      if (err.answer === undefined && !isServiceError(err.cause)) throw err.cause;
      judgeFailure('get', err.answer, err.cause); // a GET decline is a 2xx answer: this throws
      throw declined('GET', err.answer, err.cause);
    }
    const { output, answer } = sent;
    let verdict: ReturnType<typeof judgeSuccess>;
    try {
      verdict = judgeSuccess('get', answer, this.size);
    } catch (err) {
      discardBody(output.Body);
      throw err;
    }
    if (verdict === 'rdma') {
      await drainBody(output.Body);
      this.checkDownloadChecksum(answer, buf);
      const stagingMs = await staging.finish(dst);
      return result('rdma', this.size, answer, output.ETag, cuda ? stagingMs : undefined);
    }
    if (this.options.fallback !== 'http') {
      discardBody(output.Body);
      if (verdict === 'no-reply') {
        throw new CuObjError('VGW_ERR_CUOBJ_NO_RDMA_REPLY', 'GET: gateway did not confirm RDMA offload', {
          gateway: gatewayAnswer(answer),
        });
      }
      throw declined('GET', answer, undefined);
    }
    // The declined (or RDMA-unaware) GET already carries the object in its body.
    await readBodyInto(output.Body, buf);
    await staging.finish(dst);
    return result('http', this.size, answer, output.ETag);
  }

  /** Deregisters the buffer and stops the transport client. Throws VGW_ERR_CUOBJ_SESSION_BUSY during a transfer. Idempotent. */
  close(): void {
    if (this.inFlight)
      throw new CuObjError(
        'VGW_ERR_CUOBJ_SESSION_BUSY',
        'close() while a transfer is in flight; await it first',
      );
    const { client, mem } = this;
    this.mem = undefined;
    this.client = undefined;
    try {
      mem?.close();
    } finally {
      client?.close();
    }
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /** Waits for a transfer in flight (ignoring its outcome), then closes. */
  async [Symbol.asyncDispose](): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    this.close();
  }

  private async putOverHttp(
    s3: S3Client,
    bucket: string,
    key: string,
    buf: Uint8Array,
    input: UploadInput,
  ): Promise<TransferResult> {
    const checksum = this.options.checksum;
    const sums =
      checksum === undefined
        ? {}
        : {
            [checksum === 'crc32' ? 'ChecksumCRC32' : 'ChecksumCRC32C']: checksumHeader(checksum, buf).value,
          };
    const out = await s3.send(
      new PutObjectCommand({ ...input, ...sums, Bucket: bucket, Key: key, Body: buf }),
    );
    return {
      via: 'http',
      bytes: this.size,
      httpStatus: out.$metadata.httpStatusCode ?? 200,
      etag: out.ETag,
      rdmaReply: undefined,
    };
  }

  /**
   * With `checksum` set: the full-object checksum the gateway sent (when it has one for that
   * algorithm; composite multipart values `...-N` cannot be checked) must match the buffer.
   */
  private checkDownloadChecksum(answer: RawAnswer, buf: Uint8Array): void {
    const algorithm = this.options.checksum;
    if (algorithm === undefined) return;
    const { header } = CHECKSUMS[algorithm];
    const sent = answer.headers[header];
    if (sent === undefined || sent.includes('-')) return;
    const got = checksumHeader(algorithm, buf).value;
    if (got !== sent) {
      throw new CuObjError(
        'VGW_ERR_CUOBJ_CHECKSUM_MISMATCH',
        `GET: ${header} of the data received is ${got}, the object's is ${sent}`,
        {
          gateway: gatewayAnswer(answer),
        },
      );
    }
  }

  private live(): SessionBuffer {
    if (!this.mem) throw new CuObjError('VGW_ERR_CUOBJ_SESSION_CLOSED', 'the session is closed');
    return this.mem;
  }

  private deviceMemory(what: string) {
    const { device } = this.live();
    if (device === undefined)
      throw new CuObjError(
        'VGW_ERR_CUOBJ_WRONG_MEMORY',
        `${what}: this is a memory: 'host' session (use buffer)`,
      );
    return device;
  }

  private checkLength(what: string, b: Uint8Array): void {
    if (b.length !== this.size) {
      throw new CuObjError(
        'VGW_ERR_CUOBJ_SIZE_MISMATCH',
        `${what} is ${b.length} bytes; this session moves exactly ${this.size}`,
      );
    }
  }

  /**
   * @internal TransferManager's entry: runs `fn` on the registered memory as this session's one
   * transfer in flight (VGW_ERR_CUOBJ_SESSION_BUSY / _CLOSED otherwise). Not for applications.
   */
  runExclusive<T>(fn: (mem: SessionBuffer) => Promise<T>): Promise<T> {
    return this.exclusive(fn);
  }

  /** Runs one transfer, refusing a second one while it is in flight. */
  private exclusive<T>(fn: (mem: SessionBuffer) => Promise<T>): Promise<T> {
    if (this.inFlight) {
      return Promise.reject(
        new CuObjError(
          'VGW_ERR_CUOBJ_SESSION_BUSY',
          'a transfer is already in flight on this session; a session is for sequential use (open one per concurrent stream)',
        ),
      );
    }
    let mem: SessionBuffer;
    try {
      mem = this.live();
    } catch (err) {
      return Promise.reject(err);
    }
    const p = fn(mem).finally(() => {
      this.inFlight = undefined;
    });
    this.inFlight = p;
    return p;
  }
}
