// Test support: builds aws-chunked bodies the way the spec describes (and the AWS SDKs for Java
// and Go send them): `hex-size;chunk-signature=sig\r\n data \r\n`, a final zero-size chunk, then
// optional trailers and their signature. Written independently of the decoder, from the spec.
import { createHash, createHmac } from 'node:crypto';

interface ChunkSigning {
  seedSignature: string;
  signingKey: Buffer;
  amzDate: string;
  scope: string;
}

export interface EncodeOptions {
  /** Data bytes per chunk (the last one may be shorter). */
  chunkSize: number;
  /** Sign every chunk (STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER]). */
  signing?: ChunkSigning;
  /** Trailing headers, in order, e.g. { 'x-amz-checksum-crc32': 'AAAAAA==' }. */
  trailers?: Record<string, string>;
  /** Add x-amz-trailer-signature (needs signing). */
  signTrailers?: boolean;
}

const EMPTY = createHash('sha256').digest('hex');
const hmacHex = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('hex');

interface Encoded {
  /** The encoded body as separate pieces (headers, data, CRLFs), to concatenate or stream. */
  pieces: Buffer[];
  /** Signatures in order: each data chunk, the final chunk, the trailer (when signed). */
  signatures: string[];
}

export function encodeAwsChunked(data: Buffer, o: EncodeOptions): Encoded {
  const pieces: Buffer[] = [];
  const signatures: string[] = [];
  let previous = o.signing?.seedSignature ?? '';
  const header = (chunk: Buffer): Buffer => {
    if (!o.signing) return Buffer.from(`${chunk.length.toString(16)}\r\n`);
    const digest = createHash('sha256').update(chunk).digest('hex');
    const sig = hmacHex(
      o.signing.signingKey,
      ['AWS4-HMAC-SHA256-PAYLOAD', o.signing.amzDate, o.signing.scope, previous, EMPTY, digest].join('\n'),
    );
    signatures.push(sig);
    previous = sig;
    return Buffer.from(`${chunk.length.toString(16)};chunk-signature=${sig}\r\n`);
  };
  for (let at = 0; at < data.length; at += o.chunkSize) {
    const chunk = data.subarray(at, Math.min(at + o.chunkSize, data.length));
    pieces.push(header(chunk), chunk, Buffer.from('\r\n'));
  }
  pieces.push(header(Buffer.alloc(0)));
  const trailers = Object.entries(o.trailers ?? {});
  if (trailers.length === 0 && !o.signTrailers) {
    pieces.push(Buffer.from('\r\n'));
    return { pieces, signatures };
  }
  let canonical = '';
  for (const [name, value] of trailers) {
    pieces.push(Buffer.from(`${name}:${value}\r\n`));
    canonical += `${name}:${value}\n`;
  }
  if (o.signTrailers && o.signing) {
    const digest = createHash('sha256').update(canonical).digest('hex');
    const sig = hmacHex(
      o.signing.signingKey,
      ['AWS4-HMAC-SHA256-TRAILER', o.signing.amzDate, o.signing.scope, previous, digest].join('\n'),
    );
    signatures.push(sig);
    pieces.push(Buffer.from(`x-amz-trailer-signature:${sig}\r\n`));
  }
  pieces.push(Buffer.from('\r\n'));
  return { pieces, signatures };
}

/** Re-slices a byte sequence into pieces of the given sizes (cycled), like a socket would. */
export function* reslice(whole: Buffer, sizes: readonly number[]): Generator<Buffer> {
  let at = 0;
  for (let i = 0; at < whole.length; i++) {
    const size = sizes[i % sizes.length] ?? whole.length;
    yield whole.subarray(at, Math.min(at + size, whole.length));
    at += size;
  }
}
