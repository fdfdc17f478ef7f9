// cuobjtest's managed transfers (-part-size / -part-concurrency, or -size above one session's
// cap): 'rdma' through cuobjclient's TransferManager (multipart RDMA UploadParts, concurrent
// ranged RDMA GETs; host memory, or GPU memory it allocates with -memory cuda), and 'std-s3'
// as the AWS SDK moves big objects over HTTP — CreateMultipartUpload / UploadPart /
// CompleteMultipartUpload and ranged GETs, by hand (@aws-sdk/lib-storage is not a dependency),
// with the same part size and parts in flight, so a -compare is fair. Each owns object-sized
// host memory in chunks (any size on Node 20), CRC32-checked where the data lives.

import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { CuObjError, type DeviceAllocation, planParts, TransferManager } from '@vgwrdma/cuobjclient';
import { ChunkedBytes } from './chunked-bytes.js';
import { HostHttpTransport } from './host-http-transport.js';
import type { Memory, Moved, Transport } from './transports.js';

export interface PartSettings {
  /** Bytes per part. */
  readonly partSize: number;
  /** Parts in flight. */
  readonly concurrency: number;
}

/** Runs `fn` over `items` with at most `n` at once; rejects with the first failure after all settled. */
async function pooled<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      try {
        await fn(items[next++] as T);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  if (failure !== undefined) throw failure;
}

export class ManagedRdmaTransport implements Transport {
  readonly mode = 'rdma' as const;
  private readonly bytes: ChunkedBytes;
  private readonly device: DeviceAllocation | undefined;

  private readonly tm: TransferManager;

  constructor(
    s3: S3Client,
    private readonly bucket: string,
    size: number,
    readonly memory: Memory,
    parts: PartSettings,
  ) {
    this.tm = new TransferManager({ client: s3, partSize: parts.partSize, concurrency: parts.concurrency });
    this.bytes = new ChunkedBytes(size);
    this.device = memory === 'cuda' ? this.tm.allocateDevice(size) : undefined;
  }

  fillRandom(): number {
    this.bytes.fillRandom();
    this.toDevice();
    return this.bytes.crc();
  }

  clear(): void {
    this.bytes.clear();
    this.device?.fill(0);
  }

  crc(): number {
    const device = this.device;
    if (device) this.eachChunk((c, at) => device.copyToHost(c, at));
    return this.bytes.crc();
  }

  async put(key: string): Promise<Moved> {
    const b = this.bytes;
    const source = this.device ?? { size: b.size, read: (o: number, into: Uint8Array) => b.read(o, into) };
    const r = await this.tm.upload({ bucket: this.bucket, key, source });
    return { parts: r.parts, retries: r.retries, etag: r.etag };
  }

  async get(key: string): Promise<Moved> {
    const b = this.bytes;
    const destination = this.device ?? {
      capacity: b.size,
      write: (o: number, x: Uint8Array) => b.write(o, x),
    };
    const r = await this.tm.download({ bucket: this.bucket, key, destination });
    return { parts: r.parts, retries: r.retries, etag: r.etag };
  }

  describe(): string | undefined {
    return undefined;
  }

  private toDevice(): void {
    const device = this.device;
    if (device) this.eachChunk((c, at) => device.copyFromHost(c, at));
  }

  /** Each host chunk with its offset in the object. */
  private eachChunk(f: (chunk: Uint8Array, at: number) => void): void {
    let at = 0;
    for (const c of this.bytes.parts) {
      f(c, at);
      at += c.length;
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.tm.close();
  }
}

export class MultipartHttpTransport extends HostHttpTransport<ChunkedBytes> {
  constructor(
    s3: S3Client,
    bucket: string,
    size: number,
    private readonly settings: PartSettings,
  ) {
    super(s3, bucket, new ChunkedBytes(size));
  }

  async put(key: string): Promise<Moved> {
    const Bucket = this.bucket;
    const spans = planParts(this.bytes.size, this.settings.partSize);
    const { UploadId } = await this.s3.send(new CreateMultipartUploadCommand({ Bucket, Key: key }));
    const etags: string[] = [];
    try {
      await pooled(spans, this.settings.concurrency, async (p) => {
        const out = await this.s3.send(
          new UploadPartCommand({
            Bucket,
            Key: key,
            UploadId,
            PartNumber: p.number,
            Body: this.bytes.slice(p.offset, p.length),
            ContentLength: p.length,
          }),
        );
        etags[p.number - 1] = out.ETag ?? '';
      });
      const done = await this.s3.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
        }),
      );
      return { parts: spans.length, retries: 0, etag: done.ETag };
    } catch (err) {
      await this.s3
        .send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId }))
        .catch(() => undefined);
      throw err;
    }
  }

  async get(key: string): Promise<Moved> {
    const spans = planParts(this.bytes.size, this.settings.partSize);
    let etag: string | undefined;
    await pooled(spans, this.settings.concurrency, async (p) => {
      const out = await this.s3.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: `bytes=${p.offset}-${p.offset + p.length - 1}`,
        }),
      );
      etag = out.ETag;
      let at = p.offset;
      for await (const chunk of out.Body as AsyncIterable<Uint8Array>) {
        if (at + chunk.length > p.offset + p.length)
          throw new CuObjError('VGW_ERR_CUOBJ_BODY_LENGTH', `GET ${key}: range ${p.number} is too long`);
        this.bytes.write(at, chunk);
        at += chunk.length;
      }
      if (at !== p.offset + p.length)
        throw new CuObjError(
          'VGW_ERR_CUOBJ_BODY_LENGTH',
          `GET ${key}: range ${p.number} has ${at - p.offset} bytes`,
        );
    });
    return { parts: spans.length, retries: 0, etag };
  }
}
