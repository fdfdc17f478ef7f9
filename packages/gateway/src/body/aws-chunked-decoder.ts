// Streams an aws-chunked body back to plain bytes, verifying chunk signatures and trailers on the
// way. Data is pushed as zero-copy slices of the incoming buffers; only header and trailer lines
// (bounded, a few dozen bytes) are ever copied, and line ends are found with Buffer.indexOf.
// Invariant: any verification failure errors the stream before 'end', so a consumer that only
// commits on 'end' never keeps bytes from a tampered or truncated body.
import { Transform, type TransformCallback } from 'node:stream';
import { bodyErrors } from './body-errors.js';
import { parseChunkHeader } from './chunk-header.js';
import { ChunkSignatureChain, type ChunkSigningParams } from './chunk-signature.js';
import { ChunkVerifier } from './chunk-verifier.js';
import { TrailerSection } from './trailer-section.js';

export interface AwsChunkedOptions {
  /** Present for STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER]: every chunk must be signed. */
  signing?: ChunkSigningParams;
  /** Whether trailing headers may follow the final chunk. */
  trailers: boolean;
  /** Lower-case trailer names the request declared in x-amz-trailer (must all arrive). */
  declaredTrailers: readonly string[];
  /** x-amz-decoded-content-length, when sent: the decoded byte count must equal it. */
  decodedLength: number | undefined;
}

type State = 'header' | 'data' | 'data-cr' | 'data-lf' | 'trailer' | 'done';

const LF = 0x0a;
const CR = 0x0d;
/** Longest header or trailer line accepted: a size, a signature extension, a checksum. */
const MAX_LINE = 4096;
/** S3's rule for signed streaming: every chunk but the last carries at least 8 KiB. */
const MIN_SIGNED_CHUNK = 8192;

export class AwsChunkedDecoder extends Transform {
  private state: State = 'header';
  private carry: Buffer | undefined; // a header/trailer line split across incoming buffers
  private remaining = 0; // data bytes left in the current chunk
  private decoded = 0; // data bytes announced by the chunk headers so far
  private previousSize = -1;
  private readonly chain: ChunkSignatureChain | undefined;
  private readonly verifier: ChunkVerifier | undefined;
  readonly trailerSection: TrailerSection;

  constructor(private readonly opts: AwsChunkedOptions) {
    super({ readableHighWaterMark: 1 << 16, writableHighWaterMark: 1 << 16 });
    this.chain = opts.signing ? new ChunkSignatureChain(opts.signing) : undefined;
    this.verifier = this.chain ? new ChunkVerifier(this.chain) : undefined;
    this.trailerSection = new TrailerSection(opts.declaredTrailers);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.consume(chunk);
      callback();
    } catch (err) {
      callback(err as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (this.state === 'trailer') {
        // Clients may end right after the final chunk or the last trailer line.
        const rest = this.carry?.toString('latin1').replace(/\r$/, '') ?? '';
        this.carry = undefined;
        if (rest !== '') this.trailerLine(rest);
        if (this.state === 'trailer') this.finish();
      }
      callback(this.state === 'done' ? null : bodyErrors.truncated());
    } catch (err) {
      callback(err as Error);
    }
  }

  private consume(buf: Buffer): void {
    let pos = 0;
    while (pos < buf.length) {
      switch (this.state) {
        case 'data': {
          const n = Math.min(this.remaining, buf.length - pos);
          const piece = buf.subarray(pos, pos + n);
          this.verifier?.update(piece);
          this.push(piece);
          pos += n;
          this.remaining -= n;
          if (this.remaining === 0) this.endOfChunkData();
          break;
        }
        case 'data-cr':
        case 'data-lf': {
          const want = this.state === 'data-cr' ? CR : LF;
          if (buf[pos] !== want) throw bodyErrors.truncated();
          pos++;
          this.state = this.state === 'data-cr' ? 'data-lf' : 'header';
          break;
        }
        case 'header':
        case 'trailer': {
          const lf = buf.indexOf(LF, pos);
          const end = lf < 0 ? buf.length : lf + 1;
          const piece = buf.subarray(pos, end);
          pos = end;
          const line = this.carry ? Buffer.concat([this.carry, piece]) : piece;
          if (lf < 0) {
            if (line.length > MAX_LINE)
              throw this.state === 'header' ? bodyErrors.badChunkSize() : bodyErrors.badTrailer();
            this.carry = Buffer.from(line); // copy: the incoming buffer may be reused
            break;
          }
          this.carry = undefined;
          if (line.length < 2 || line[line.length - 2] !== CR) {
            throw this.state === 'header' ? bodyErrors.badChunkSize() : bodyErrors.badTrailer();
          }
          const text = line.toString('latin1', 0, line.length - 2);
          if (this.state === 'header') this.chunkHeader(text);
          else this.trailerLine(text);
          break;
        }
        case 'done':
          throw bodyErrors.badTrailer(); // bytes after the end of the body
      }
    }
  }

  private chunkHeader(line: string): void {
    const { size, signature } = parseChunkHeader(line);
    if (this.chain) {
      if (signature === undefined) throw bodyErrors.badSignature();
      if (size > 0 && this.previousSize >= 0 && this.previousSize < MIN_SIGNED_CHUNK)
        throw bodyErrors.badChunkSize();
    }
    const declared = this.opts.decodedLength;
    if (declared !== undefined && this.decoded + size > declared) throw bodyErrors.truncated();
    this.previousSize = size;
    this.decoded += size;
    this.verifier?.begin(size, signature ?? '');
    if (size === 0) {
      this.verifier?.end();
      this.state = 'trailer';
      return;
    }
    this.remaining = size;
    this.state = 'data';
  }

  private endOfChunkData(): void {
    this.verifier?.end();
    this.state = 'data-cr';
  }

  private trailerLine(line: string): void {
    if (line === '') {
      this.finish();
      return;
    }
    if (!this.opts.trailers) throw bodyErrors.badTrailer();
    this.trailerSection.add(line);
  }

  private finish(): void {
    this.trailerSection.finish(this.opts.trailers ? this.chain : undefined);
    const declared = this.opts.decodedLength;
    if (declared !== undefined && this.decoded !== declared) throw bodyErrors.truncated();
    this.state = 'done';
  }
}
