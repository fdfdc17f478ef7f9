// The two ways cuobjtest moves an object: 'rdma' through a cuobjclient Session (the gateway
// reads/writes registered memory; no fallback, so a declined transfer fails loudly), and
// 'std-s3' with the data in the HTTP body (plain PutObject/GetObject, no aws-chunked framing).
// Each transport owns one buffer of the object size that puts read and gets fill.

import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Session } from '@vgwrdma/cuobjclient';

export type Mode = 'rdma' | 'std-s3';

export interface Transport extends AsyncDisposable {
  readonly mode: Mode;
  readonly buffer: Uint8Array;
  put(key: string): Promise<void>;
  get(key: string): Promise<void>;
}

export async function openTransport(
  mode: Mode,
  s3: S3Client,
  bucket: string,
  size: number,
): Promise<Transport> {
  return mode === 'rdma' ? RdmaTransport.open(s3, bucket, size) : new HttpTransport(s3, bucket, size);
}

class RdmaTransport implements Transport {
  readonly mode = 'rdma' as const;
  private constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly session: Session,
  ) {}

  static async open(s3: S3Client, bucket: string, size: number): Promise<RdmaTransport> {
    // Sizes above the default 1 GiB session cap are allowed up to the token capacity.
    return new RdmaTransport(s3, bucket, await Session.open({ size, maxSize: Math.max(size, 2 ** 30) }));
  }

  get buffer(): Uint8Array {
    return this.session.buffer;
  }

  async put(key: string): Promise<void> {
    await this.session.upload(this.s3, this.bucket, key);
  }

  async get(key: string): Promise<void> {
    await this.session.download(this.s3, this.bucket, key);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.session[Symbol.asyncDispose]();
  }
}

class HttpTransport implements Transport {
  readonly mode = 'std-s3' as const;
  readonly buffer: Uint8Array;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    size: number,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(size);
  }

  async put(key: string): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: this.buffer }));
  }

  async get(key: string): Promise<void> {
    await getInto(this.s3, this.bucket, key, this.buffer);
  }

  async [Symbol.asyncDispose](): Promise<void> {}
}

/** Plain-HTTP GET of an object into `target`, which it must fill exactly. */
export async function getInto(s3: S3Client, bucket: string, key: string, target: Uint8Array): Promise<void> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  let at = 0;
  for await (const chunk of out.Body as AsyncIterable<Uint8Array>) {
    if (at + chunk.length > target.length)
      throw new Error(`GET ${key}: object is larger than ${target.length} bytes`);
    target.set(chunk, at);
    at += chunk.length;
  }
  if (at !== target.length) throw new Error(`GET ${key}: object has ${at} bytes, expected ${target.length}`);
}
