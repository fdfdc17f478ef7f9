// What cuobjtest's two 'std-s3' transports share (the plain one in transports.ts, the multipart
// one in managed-transports.ts): host memory that puts send and gets fill, filled with random
// data and CRC32-checked where it lies. Only how an object crosses HTTP differs between them.

import type { S3Client } from '@aws-sdk/client-s3';
import type { Moved, Transport } from './transports.js';

/** Host memory as a std-s3 transport holds it (one buffer, or chunks for any size). */
export interface HostBytes {
  fillRandom(): void;
  clear(): void;
  crc(): number;
}

export abstract class HostHttpTransport<B extends HostBytes> implements Transport {
  readonly mode = 'std-s3' as const;
  readonly memory = 'host' as const;

  protected constructor(
    protected readonly s3: S3Client,
    protected readonly bucket: string,
    protected readonly bytes: B,
  ) {}

  fillRandom(): number {
    this.bytes.fillRandom();
    return this.bytes.crc();
  }

  clear(): void {
    this.bytes.clear();
  }

  crc(): number {
    return this.bytes.crc();
  }

  abstract put(key: string): Promise<Moved>;
  abstract get(key: string): Promise<Moved>;

  describe(): undefined {
    return undefined;
  }

  async [Symbol.asyncDispose](): Promise<void> {}
}
