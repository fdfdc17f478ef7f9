// The ways cuobjtest moves an object: 'rdma' through a cuobjclient Session (the gateway
// reads/writes registered memory; no fallback, so a declined transfer fails loudly) — in host
// memory, or with --memory cuda in GPU memory (staged through pinned host memory over softnic) —
// and 'std-s3' with the data in the HTTP body (plain PutObject/GetObject, no aws-chunked
// framing); with part settings the managed ones (managed-transports.ts). Each transport owns one object-sized buffer that puts read and gets fill, and
// answers for its content by CRC32 read where the data really is (device memory for 'cuda').

import { randomFillSync } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { CuObjError, Session } from '@vgwrdma/cuobjclient';
import { type HostBytes, HostHttpTransport } from './host-http-transport.js';
import { ManagedRdmaTransport, MultipartHttpTransport, type PartSettings } from './managed-transports.js';

export type Mode = 'rdma' | 'std-s3';
export type Memory = 'host' | 'cuda';

/** What one transfer reports besides its time. */
export interface Moved {
  /** ms of device ↔ host staging inside the transfer ('cuda' only). */
  readonly stagingMs?: number;
  /** Managed transfers: parts (or ranges) moved, retries, the object's ETag. */
  readonly parts?: number;
  readonly retries?: number;
  readonly etag?: string | undefined;
}

export interface Transport extends AsyncDisposable {
  readonly mode: Mode;
  readonly memory: Memory;
  /** Puts fresh random data where the next put() reads it; returns its CRC32. */
  fillRandom(): number;
  /** Zeroes where get() writes, so a transfer that moved nothing cannot pass. */
  clear(): void;
  /** CRC32 of the buffer, read where the data lives. */
  crc(): number;
  put(key: string): Promise<Moved>;
  get(key: string): Promise<Moved>;
  /** 'cuda': the GPU it runs on. */
  describe(): string | undefined;
}

const FILL_CHUNK = 2 ** 30; // randomFillSync takes at most 2^31 - 1 bytes per call

function fillRandom(b: Uint8Array): void {
  for (let at = 0; at < b.length; at += FILL_CHUNK)
    randomFillSync(b, at, Math.min(FILL_CHUNK, b.length - at));
}

function crcOf(b: Uint8Array): number {
  return crc32(b) >>> 0;
}

export async function openTransport(
  mode: Mode,
  s3: S3Client,
  bucket: string,
  size: number,
  memory: Memory = 'host',
  parts?: PartSettings,
): Promise<Transport> {
  if (parts !== undefined) {
    return mode === 'rdma'
      ? new ManagedRdmaTransport(s3, bucket, size, memory, parts)
      : new MultipartHttpTransport(s3, bucket, size, parts);
  }
  return mode === 'rdma' ? RdmaTransport.open(s3, bucket, size, memory) : new HttpTransport(s3, bucket, size);
}

class RdmaTransport implements Transport {
  readonly mode = 'rdma' as const;
  /** 'cuda': the host side of fills and checks (the session's own bytes are on the device). */
  private readonly scratch: Uint8Array | undefined;

  private constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly session: Session,
    readonly memory: Memory,
  ) {
    this.scratch = memory === 'cuda' ? Buffer.allocUnsafeSlow(session.size) : undefined;
  }

  static async open(s3: S3Client, bucket: string, size: number, memory: Memory): Promise<RdmaTransport> {
    // Sizes above the default 1 GiB session cap are allowed up to the token capacity.
    const session = await Session.open({ size, memory, maxSize: Math.max(size, 2 ** 30) });
    return new RdmaTransport(s3, bucket, session, memory);
  }

  fillRandom(): number {
    if (!this.scratch) {
      fillRandom(this.session.buffer);
      return crcOf(this.session.buffer);
    }
    fillRandom(this.scratch);
    this.session.copyToDevice(this.scratch);
    return crcOf(this.scratch);
  }

  clear(): void {
    if (!this.scratch) return void this.session.buffer.fill(0);
    this.scratch.fill(0);
    this.session.copyToDevice(this.scratch);
  }

  crc(): number {
    if (!this.scratch) return crcOf(this.session.buffer);
    this.session.copyFromDevice(this.scratch);
    return crcOf(this.scratch);
  }

  async put(key: string): Promise<Moved> {
    return moved(await this.session.upload(this.s3, this.bucket, key));
  }

  async get(key: string): Promise<Moved> {
    return moved(await this.session.download(this.s3, this.bucket, key));
  }

  describe(): string | undefined {
    return this.memory === 'cuda' ? this.session.describeDevice() : undefined;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.session[Symbol.asyncDispose]();
  }
}

function moved(r: { stagingMs?: number }): Moved {
  return r.stagingMs === undefined ? {} : { stagingMs: r.stagingMs };
}

/** One object-sized buffer, as the plain std-s3 transport sends and fills it. */
class FlatBytes implements HostBytes {
  readonly buffer: Uint8Array;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafeSlow(size);
  }

  fillRandom(): void {
    fillRandom(this.buffer);
  }

  clear(): void {
    this.buffer.fill(0);
  }

  crc(): number {
    return crcOf(this.buffer);
  }
}

class HttpTransport extends HostHttpTransport<FlatBytes> {
  constructor(s3: S3Client, bucket: string, size: number) {
    super(s3, bucket, new FlatBytes(size));
  }

  async put(key: string): Promise<Moved> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: this.bytes.buffer }));
    return {};
  }

  async get(key: string): Promise<Moved> {
    await getInto(this.s3, this.bucket, key, this.bytes.buffer);
    return {};
  }
}

/** CRC32 of an object by a plain-HTTP GET, streamed (any size); it must be `size` bytes long. */
export async function crcOfObject(s3: S3Client, bucket: string, key: string, size: number): Promise<number> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  let at = 0;
  let crc = 0;
  for await (const chunk of out.Body as AsyncIterable<Uint8Array>) {
    crc = crc32(chunk, crc);
    at += chunk.length;
  }
  if (at !== size)
    throw new CuObjError('VGW_ERR_CUOBJ_BODY_LENGTH', `GET ${key}: object has ${at} bytes, expected ${size}`);
  return crc >>> 0;
}

/** Plain-HTTP GET of an object into `target`, which it must fill exactly. */
export async function getInto(s3: S3Client, bucket: string, key: string, target: Uint8Array): Promise<void> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  let at = 0;
  for await (const chunk of out.Body as AsyncIterable<Uint8Array>) {
    if (at + chunk.length > target.length)
      throw new CuObjError(
        'VGW_ERR_CUOBJ_BODY_LENGTH',
        `GET ${key}: object is larger than ${target.length} bytes`,
      );
    target.set(chunk, at);
    at += chunk.length;
  }
  if (at !== target.length)
    throw new CuObjError(
      'VGW_ERR_CUOBJ_BODY_LENGTH',
      `GET ${key}: object has ${at} bytes, expected ${target.length}`,
    );
}
