// The ETag of a body as it streams past, in one of two modes (docs/architecture.md, "ETag modes"):
//   - md5: the MD5 of the whole body, S3's ETag for a single PUT. MD5 is serial, so one core
//     bounds how fast a large body can be taken in;
//   - parts: the body is cut into fixed-size parts hashed at the same time (each its own
//     off-thread digest, on its own pool thread), and a body of more than one part gets S3's
//     multipart form, `<md5 of the parts' binary MD5s>-<N>`. A body of one part is the same MD5
//     either way, so small objects never change form.
// One interface for both, so ingest needs no branches.
import { createHash } from 'node:crypto';
import { type StreamDigest, streamDigest } from './stream-digest.js';

export type EtagMode = { readonly kind: 'md5' } | { readonly kind: 'parts'; readonly partSize: number };

export const MD5_ETAG: EtagMode = { kind: 'md5' };

/** Smallest part size S3 allows in a multipart upload (but the last): the parts mode's floor. */
export const MIN_ETAG_PART_SIZE = 5 * 1024 * 1024;

export interface EtagResult {
  /** The quoted ETag. */
  readonly etag: string;
  /** The whole body's binary MD5, when the ETag is one (md5 mode, or a single part). */
  readonly md5?: Buffer;
  /** Cumulative part ends (`ends[i]` is the offset just past part i+1), when the ETag has parts. */
  readonly partEnds?: readonly number[];
}

export interface EtagDigest {
  /** As StreamDigest.update: `done` runs once every byte of `chunk` was hashed. */
  update(chunk: Uint8Array, done?: () => void): void;
  /**
   * Whether hashing a copy (updateCopy) lets the caller go faster: the parts mode hashes many
   * parts at once, so memory lent for a short time (an RDMA slice) is better copied and given
   * back at once than held until a part's hash reaches it.
   */
  readonly prefersCopies: boolean;
  /** Hashes a copy of `chunk`; the caller may reuse `chunk` as soon as this returns. */
  updateCopy(chunk: Uint8Array): void;
  backpressure(): Promise<void> | undefined;
  /** Once, after the last update. */
  result(): Promise<EtagResult>;
  /** Stops hashing (an aborted body). Safe after result(). */
  dispose(): void;
}

/** Parts hashed at once at most; the producer waits for the oldest beyond that. */
const PARTS_IN_FLIGHT = 8;

/** An ETag digest for a body of `expectedBytes` (undefined: unknown); `large` as streamDigest's. */
export function etagDigest(mode: EtagMode, expectedBytes: number | undefined, large = false): EtagDigest {
  if (mode.kind === 'md5') return new WholeMd5(streamDigest('md5', expectedBytes, large));
  return new PartsMd5(mode.partSize, expectedBytes, large);
}

class WholeMd5 implements EtagDigest {
  readonly prefersCopies = false;
  constructor(private readonly md5: StreamDigest) {}
  update(chunk: Uint8Array, done?: () => void): void {
    this.md5.update(chunk, done);
  }
  updateCopy(chunk: Uint8Array): void {
    this.md5.update(Buffer.from(chunk));
  }
  backpressure(): Promise<void> | undefined {
    return this.md5.backpressure();
  }
  async result(): Promise<EtagResult> {
    const md5 = await this.md5.digest();
    return { etag: `"${md5.toString('hex')}"`, md5 };
  }
  dispose(): void {
    this.md5.dispose();
  }
}

interface Part {
  readonly digest: StreamDigest;
  /** The part's MD5, asked for once the part is full. */
  md5?: Promise<Buffer>;
  settled: boolean;
}

/** Copy buffers kept for reuse across bodies (each COPY_BYTES), at most. */
const COPIES_KEPT = 16;
const COPY_BYTES = 4 << 20;
const copies: Buffer[] = [];

/** A buffer for a copy of `n` bytes (a fresh one costs page faults on first touch: reuse). */
function takeCopy(n: number): Buffer {
  if (n > COPY_BYTES) return Buffer.allocUnsafeSlow(n);
  return copies.pop() ?? Buffer.allocUnsafeSlow(COPY_BYTES);
}

function giveCopy(b: Buffer): void {
  if (b.length === COPY_BYTES && copies.length < COPIES_KEPT) copies.push(b);
}

class PartsMd5 implements EtagDigest {
  readonly prefersCopies = true;
  private readonly parts: Part[] = [];
  private readonly ends: number[] = [];
  private filled = 0;
  private total = 0;

  constructor(
    private readonly partSize: number,
    private readonly expectedBytes: number | undefined,
    private readonly large: boolean,
  ) {
    this.open();
  }

  update(chunk: Uint8Array, done?: () => void): void {
    // The chunk may span parts: each piece goes to its own part; `done` waits for all of them.
    let pending = 1;
    const pieceDone = done
      ? () => {
          pending -= 1;
          if (pending === 0) done();
        }
      : undefined;
    let at = 0;
    while (at < chunk.length) {
      if (this.filled === this.partSize) {
        this.close();
        this.open();
      }
      const n = Math.min(chunk.length - at, this.partSize - this.filled);
      pending += 1;
      this.current().update(at === 0 && n === chunk.length ? chunk : chunk.subarray(at, at + n), pieceDone);
      this.filled += n;
      this.total += n;
      at += n;
    }
    pieceDone?.();
  }

  updateCopy(chunk: Uint8Array): void {
    const buf = takeCopy(chunk.length);
    buf.set(chunk);
    this.update(buf.subarray(0, chunk.length), () => giveCopy(buf));
  }

  backpressure(): Promise<void> | undefined {
    const own = this.current().backpressure();
    if (own) return own;
    const inFlight = this.parts.filter((p) => p.md5 !== undefined && !p.settled);
    const oldest = inFlight[0];
    return inFlight.length >= PARTS_IN_FLIGHT && oldest?.md5 ? oldest.md5.then(() => undefined) : undefined;
  }

  async result(): Promise<EtagResult> {
    this.close();
    const md5s = await Promise.all(this.parts.map((p) => p.md5 as Promise<Buffer>));
    if (md5s.length === 1) {
      const md5 = md5s[0] as Buffer;
      return { etag: `"${md5.toString('hex')}"`, md5 };
    }
    const h = createHash('md5');
    for (const m of md5s) h.update(m);
    return { etag: `"${h.digest('hex')}-${md5s.length}"`, partEnds: [...this.ends] };
  }

  dispose(): void {
    for (const p of this.parts) p.digest.dispose();
  }

  private current(): StreamDigest {
    return (this.parts[this.parts.length - 1] as Part).digest;
  }

  private open(): void {
    const left = this.expectedBytes === undefined ? undefined : this.expectedBytes - this.total;
    const expected = left === undefined ? undefined : Math.min(left, this.partSize);
    // A body of several parts hashes each off the main thread where it can (they run at once).
    const large = this.large || (this.expectedBytes !== undefined && this.expectedBytes > this.partSize);
    this.parts.push({ digest: streamDigest('md5', expected, large), settled: false });
    this.filled = 0;
  }

  /** Asks the current part for its MD5 (once; a part with no bytes is closed only when it is the body). */
  private close(): void {
    const part = this.parts[this.parts.length - 1] as Part;
    if (part.md5) return;
    if (this.filled === 0 && this.parts.length > 1) {
      this.parts.pop();
      part.digest.dispose();
      return;
    }
    part.md5 = part.digest.digest();
    part.md5.then(
      () => {
        part.settled = true;
      },
      () => {
        part.settled = true;
      },
    );
    this.ends.push(this.total);
  }
}
