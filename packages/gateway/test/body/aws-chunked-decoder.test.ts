// The aws-chunked decoder against bodies built from the spec: every framing of the same payload
// decodes to the same bytes; every kind of damage fails the stream, with S3's code, before 'end'.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { signingKey } from '../../src/auth/signing.js';
import type { PayloadMode } from '../../src/auth/types.js';
import { decodeBody } from '../../src/body/decode-body.js';
import {
  type EncodeOptions,
  encodeAwsChunked,
  reslice,
} from '../../src/body/test-support/aws-chunked-encoder.js';
import { collect } from '../../src/body/test-support/collect.js';

const signing = {
  seedSignature: 'f'.repeat(64),
  signingKey: signingKey('chunk-secret', '20261129', 'us-east-1', 's3'),
  amzDate: '20261129T080000Z',
  scope: '20261129/us-east-1/s3/aws4_request',
};
const signedMode = (trailer: boolean): PayloadMode => ({ kind: 'streaming-signed', trailer, ...signing });
const unsignedTrailer: PayloadMode = { kind: 'streaming-unsigned-trailer' };

function wire(data: Buffer, o: EncodeOptions): Buffer {
  return Buffer.concat(encodeAwsChunked(data, o).pieces);
}

function headersFor(data: Buffer, extra: Record<string, string> = {}) {
  return { 'content-encoding': 'aws-chunked', 'x-amz-decoded-content-length': String(data.length), ...extra };
}

async function decode(
  body: Buffer | Iterable<Buffer>,
  payload: PayloadMode,
  headers: Record<string, string>,
) {
  const source = Readable.from(Buffer.isBuffer(body) ? [body] : body);
  const decoded = decodeBody(source, headers, payload);
  return { decoded, result: await collect(decoded.stream) };
}

describe('aws-chunked with chunk signatures', () => {
  const sizes = [0, 1, 8191, 8192, 65536, 200_003];
  const splits = [[1], [7, 3, 1000], [65536], [1 << 20]];

  it.each(sizes)('decodes %i bytes for every way the socket splits them', async (n) => {
    const data = randomBytes(n);
    const body = wire(data, { chunkSize: 65536, signing });
    for (const split of splits) {
      const { decoded, result } = await decode(reslice(body, split), signedMode(false), headersFor(data));
      expect(result.error, `split ${split}`).toBeUndefined();
      expect(result.ended).toBe(true);
      expect(result.data.equals(data)).toBe(true);
      expect(decoded.decodedLength).toBe(n);
    }
  });

  it('accepts chunks of 8 KiB exactly and a short last chunk', async () => {
    const data = randomBytes(8192 * 3 + 5);
    const { result } = await decode(
      wire(data, { chunkSize: 8192, signing }),
      signedMode(false),
      headersFor(data),
    );
    expect(result.error).toBeUndefined();
    expect(result.data.equals(data)).toBe(true);
  });

  it('verifies signed trailers and exposes their values', async () => {
    const data = randomBytes(100_000);
    const trailers = { 'x-amz-checksum-crc32c': 'sOO8/Q==' };
    const body = wire(data, { chunkSize: 65536, signing, trailers, signTrailers: true });
    const { decoded, result } = await decode(
      reslice(body, [3]),
      signedMode(true),
      headersFor(data, { 'x-amz-trailer': 'x-amz-checksum-crc32c' }),
    );
    expect(result.error).toBeUndefined();
    expect(result.data.equals(data)).toBe(true);
    expect(decoded.trailer('x-amz-checksum-crc32c')).toBe('sOO8/Q==');
    expect(decoded.trailer('X-Amz-Checksum-CRC32C')).toBe('sOO8/Q==');
    expect(decoded.trailer('x-amz-trailer-signature')).toBeUndefined();
  });

  it('fails on one flipped data byte with SignatureDoesNotMatch, before end', async () => {
    const data = randomBytes(150_000);
    const body = wire(data, { chunkSize: 65536, signing });
    const at = body.indexOf('\r\n') + 2 + 70_000; // inside the second chunk's data
    body[at] = (body[at] ?? 0) ^ 1;
    const { result } = await decode(body, signedMode(false), headersFor(data));
    expect(result.error?.code).toBe('SignatureDoesNotMatch');
    expect(result.ended).toBe(false);
  });

  it('fails on a tampered, missing or malformed chunk signature', async () => {
    const data = randomBytes(20_000);
    const { pieces } = encodeAwsChunked(data, { chunkSize: 10_000, signing });
    const text = (i: number) => (pieces[i] as Buffer).toString();
    const variants = [
      text(0).replace(/=([0-9a-f])/, (_m, c: string) => `=${c === '0' ? '1' : '0'}`),
      text(0).replace(/;chunk-signature=[0-9a-f]+/, ''),
      text(0).replace(/[0-9a-f]{64}/, 'zz'),
    ];
    for (const first of variants) {
      const body = Buffer.concat([Buffer.from(first), ...pieces.slice(1)]);
      const { result } = await decode(body, signedMode(false), headersFor(data));
      expect(result.error?.code, first).toBe('SignatureDoesNotMatch');
      expect(result.ended).toBe(false);
    }
  });

  it('fails when chunks are reordered or the final chunk signature is wrong', async () => {
    const data = randomBytes(30_000);
    const { pieces } = encodeAwsChunked(data, { chunkSize: 10_000, signing });
    // pieces: [h1,d1,crlf, h2,d2,crlf, h3,d3,crlf, final, crlf]
    const swapped = [...pieces.slice(3, 6), ...pieces.slice(0, 3), ...pieces.slice(6)];
    expect(
      (await decode(Buffer.concat(swapped), signedMode(false), headersFor(data))).result.error?.code,
    ).toBe('SignatureDoesNotMatch');
    const finalIndex = pieces.length - 2;
    const badFinal = pieces.map((p, i) =>
      i === finalIndex ? Buffer.from(`0;chunk-signature=${'0'.repeat(64)}\r\n`) : p,
    );
    const { result } = await decode(Buffer.concat(badFinal), signedMode(false), headersFor(data));
    expect(result.error?.code).toBe('SignatureDoesNotMatch');
    expect(result.ended).toBe(false);
    expect(result.data.equals(data)).toBe(true); // all data delivered, yet the stream never ends
  });

  it('fails on a tampered trailer value with SignatureDoesNotMatch', async () => {
    const data = randomBytes(10_000);
    const body = wire(data, {
      chunkSize: 65536,
      signing,
      trailers: { 'x-amz-checksum-crc32': 'AAAAAA==' },
      signTrailers: true,
    });
    const tampered = Buffer.from(body.toString('latin1').replace('AAAAAA==', 'AAAAAB=='), 'latin1');
    const { result } = await decode(tampered, signedMode(true), headersFor(data));
    expect(result.error?.code).toBe('SignatureDoesNotMatch');
    expect(result.ended).toBe(false);
  });

  it('requires the trailer signature and the declared trailers', async () => {
    const data = randomBytes(1000);
    const unsignedTrailers = wire(data, {
      chunkSize: 65536,
      signing,
      trailers: { 'x-amz-checksum-crc32': 'AAAAAA==' },
    });
    expect((await decode(unsignedTrailers, signedMode(true), headersFor(data))).result.error?.code).toBe(
      'MalformedTrailerError',
    );

    const noTrailer = wire(data, { chunkSize: 65536, signing, signTrailers: true });
    const declared = headersFor(data, { 'x-amz-trailer': 'x-amz-checksum-sha256' });
    expect((await decode(noTrailer, signedMode(true), declared)).result.error?.code).toBe(
      'MalformedTrailerError',
    );
  });

  it('refuses trailers on a body whose mode has none', async () => {
    const data = randomBytes(1000);
    const body = wire(data, { chunkSize: 65536, signing, trailers: { 'x-amz-checksum-crc32': 'AAAAAA==' } });
    expect((await decode(body, signedMode(false), headersFor(data))).result.error?.code).toBe(
      'MalformedTrailerError',
    );
  });

  it('refuses a non-final chunk smaller than 8 KiB', async () => {
    const data = randomBytes(10_000);
    const { result } = await decode(
      wire(data, { chunkSize: 4096, signing }),
      signedMode(false),
      headersFor(data),
    );
    expect(result.error?.code).toBe('InvalidChunkSizeError');
  });
});

describe('aws-chunked without chunk signatures (STREAMING-UNSIGNED-PAYLOAD-TRAILER)', () => {
  it('decodes small chunks and keeps the trailer', async () => {
    const data = randomBytes(5000);
    const body = wire(data, { chunkSize: 100, trailers: { 'x-amz-checksum-crc32': 'q1w2e3==' } });
    for (const split of [[1], [2, 5], [body.length]]) {
      const { decoded, result } = await decode(
        reslice(body, split),
        unsignedTrailer,
        headersFor(data, { 'x-amz-trailer': 'x-amz-checksum-crc32' }),
      );
      expect(result.error).toBeUndefined();
      expect(result.data.equals(data)).toBe(true);
      expect(decoded.trailer('x-amz-checksum-crc32')).toBe('q1w2e3==');
    }
  });

  it('accepts a body that ends right after the final chunk (SDK without a checksum)', async () => {
    const data = Buffer.from('hello world');
    const body = Buffer.from(`b\r\nhello world\r\n0\r\n`);
    const { result } = await decode(body, unsignedTrailer, headersFor(data));
    expect(result.error).toBeUndefined();
    expect(result.data.toString()).toBe('hello world');
  });

  it('ignores chunk extensions it does not need', async () => {
    const { result } = await decode(
      Buffer.from('5;foo=bar\r\nhello\r\n0\r\n\r\n'),
      unsignedTrailer,
      headersFor(Buffer.alloc(5)),
    );
    expect(result.data.toString()).toBe('hello');
  });

  it.each([
    ['a non-hex size', 'zz\r\nhello\r\n0\r\n\r\n', 'InvalidChunkSizeError'],
    ['an empty size', '\r\nhello\r\n0\r\n\r\n', 'InvalidChunkSizeError'],
    ['a size line without CR', '5\nhello\r\n0\r\n\r\n', 'InvalidChunkSizeError'],
    ['data longer than its size', '4\r\nhello\r\n0\r\n\r\n', 'IncompleteBody'],
    ['a trailer line without a colon', '5\r\nhello\r\n0\r\nnot-a-header\r\n\r\n', 'MalformedTrailerError'],
    ['bytes after the end', '5\r\nhello\r\n0\r\n\r\nextra', 'MalformedTrailerError'],
    ['a header line that never ends', `${'1'.repeat(5000)}`, 'InvalidChunkSizeError'],
  ])('fails on %s', async (_name, text, code) => {
    const { result } = await decode(Buffer.from(text), unsignedTrailer, {
      'content-encoding': 'aws-chunked',
    });
    expect(result.error?.code).toBe(code);
    expect(result.ended).toBe(false);
  });

  it('fails with IncompleteBody when the stream stops anywhere before the final chunk', async () => {
    const data = randomBytes(3000);
    const body = wire(data, { chunkSize: 1000, trailers: { 'x-amz-checksum-crc32': 'AAAAAA==' } });
    const finalAt = body.lastIndexOf('0\r\n');
    for (const cut of [1, 3, 500, 1004, 1007, 2500, finalAt - 1]) {
      const { result } = await decode(body.subarray(0, cut), unsignedTrailer, {
        'content-encoding': 'aws-chunked',
      });
      expect(result.error?.code, `cut at ${cut}`).toBe('IncompleteBody');
      expect(result.error?.message).toBe('The request body terminated unexpectedly');
      expect(result.ended).toBe(false);
    }
  });

  it('checks the decoded length against x-amz-decoded-content-length', async () => {
    const data = randomBytes(3000);
    const body = wire(data, { chunkSize: 1000 });
    for (const declared of [2999, 3001, 0]) {
      const { result } = await decode(body, unsignedTrailer, {
        'content-encoding': 'aws-chunked',
        'x-amz-decoded-content-length': String(declared),
      });
      expect(result.error?.code, `declared ${declared}`).toBe('IncompleteBody');
    }
  });

  it('checks a signed payload hash over the framed bytes before decoding them', async () => {
    const body = Buffer.from('3\r\nabc\r\n0\r\n\r\n');
    const sha256 = createHash('sha256').update(body).digest('hex');
    const headers = { 'content-encoding': 'aws-chunked', 'content-length': String(body.length) };
    const ok = await decode(body, { kind: 'signed', sha256 }, headers);
    expect(ok.result.data.toString()).toBe('abc');
    expect(ok.result.ended).toBe(true);
    const swapped = Buffer.from('3\r\nxyz\r\n0\r\n\r\n');
    const bad = await decode(swapped, { kind: 'signed', sha256 }, headers);
    expect(bad.result.error?.code).toBe('XAmzContentSHA256Mismatch');
    expect(bad.result.ended).toBe(false);
  });

  it('is chosen by Content-Encoding: aws-chunked even when the payload mode is plain', async () => {
    const { result } = await decode(
      Buffer.from('3\r\nabc\r\n0\r\n\r\n'),
      { kind: 'unsigned' },
      { 'content-encoding': 'aws-chunked,gzip' },
    );
    expect(result.data.toString()).toBe('abc');
  });
});

describe('backpressure', () => {
  it('stops pulling from the source while the consumer does not read', async () => {
    const data = Buffer.alloc(32 << 20, 7);
    const body = wire(data, { chunkSize: 1 << 20 });
    let pulled = 0;
    const source = Readable.from(
      (function* () {
        for (const piece of reslice(body, [1 << 16])) {
          pulled += piece.length;
          yield piece;
        }
      })(),
    );
    const decoded = decodeBody(source, headersFor(data), unsignedTrailer);
    await new Promise((r) => setTimeout(r, 100));
    // Only a few buffers' worth may be in flight when nobody reads.
    expect(pulled).toBeLessThan(2 << 20);
    const result = await collect(decoded.stream);
    expect(result.data.length).toBe(data.length);
    expect(pulled).toBe(body.length);
  });
});
