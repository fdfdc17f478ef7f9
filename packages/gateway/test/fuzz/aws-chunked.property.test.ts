// Property tests of the aws-chunked decoder (signed chunks, unsigned trailers): any framing of a
// body decodes to its bytes; any damage to the wire either fails the stream with an S3 4xx of
// the codes a body can end with, before 'end', or (signed bodies) yields exactly the original
// bytes — a tampered signed body is never accepted. Runs: FUZZ_RUNS (CI 200, stress 10^6).
import { isS3Error } from '@vgwrdma/backend-contract';
import { fuzzSettings } from '@vgwrdma/fuzz-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signingKey } from '../../src/auth/signing.js';
import { AwsChunkedDecoder } from '../../src/body/aws-chunked-decoder.js';
import { encodeAwsChunked, reslice } from '../../src/body/test-support/aws-chunked-encoder.js';
import { collect } from '../../src/body/test-support/collect.js';

const { timeout: TIMEOUT, params: FUZZ } = fuzzSettings(200);
const BODY_CODES = new Set([
  'IncompleteBody',
  'InvalidChunkSizeError',
  'SignatureDoesNotMatch',
  'MalformedTrailerError',
]);

const signing = {
  seedSignature: 'a'.repeat(64),
  signingKey: signingKey('fuzz-secret', '20261129', 'us-east-1', 's3'),
  amzDate: '20261129T080000Z',
  scope: '20261129/us-east-1/s3/aws4_request',
};

interface Case {
  data: Buffer;
  signed: boolean;
  chunkSize: number;
  trailer: boolean;
  slices: number[];
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    // mostly small bodies (speed); one in ten spans several signed chunks
    data: fc
      .oneof(
        { weight: 9, arbitrary: fc.uint8Array({ maxLength: 600 }) },
        fc.uint8Array({ maxLength: 20_000 }),
      )
      .map((a) => Buffer.from(a)),
    signed: fc.boolean(),
    smallChunk: fc.integer({ min: 1, max: 4000 }),
    trailer: fc.boolean(),
    slices: fc.array(fc.integer({ min: 1, max: 9000 }), { minLength: 1, maxLength: 6 }),
  })
  // Signed streams need >= 8 KiB in every chunk but the last.
  .map(({ smallChunk, ...c }) => ({ ...c, chunkSize: c.signed ? 8192 + smallChunk : smallChunk }));

function encode(c: Case): Buffer {
  const trailers = c.trailer ? { 'x-amz-checksum-crc32': 'AAAAAA==' } : undefined;
  return Buffer.concat(
    encodeAwsChunked(c.data, {
      chunkSize: c.chunkSize,
      ...(c.signed ? { signing } : {}),
      ...(trailers ? { trailers, signTrailers: c.signed } : {}),
    }).pieces,
  );
}

async function decode(c: Case, wire: Buffer) {
  const decoder = new AwsChunkedDecoder({
    ...(c.signed ? { signing } : {}),
    trailers: c.trailer || !c.signed,
    declaredTrailers: c.trailer ? ['x-amz-checksum-crc32'] : [],
    decodedLength: c.data.length,
  });
  const done = collect(decoder);
  for (const piece of reslice(wire, c.slices)) {
    if (decoder.destroyed) break;
    decoder.write(piece);
  }
  if (!decoder.destroyed) decoder.end();
  return done;
}

type Mutation = { at: number; kind: 'flip' | 'insert' | 'delete' | 'truncate' | 'dup'; byte: number };
const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('flip', 'insert', 'delete', 'truncate', 'dup'),
  byte: fc.integer({ min: 0, max: 255 }),
});

function mutate(wire: Buffer, m: Mutation): Buffer {
  const at = m.at % (wire.length + 1);
  const b = Buffer.of(m.byte);
  if (m.kind === 'flip' && at < wire.length) {
    const out = Buffer.from(wire);
    out[at] = (out[at] ?? 0) ^ (m.byte | 1);
    return out;
  }
  if (m.kind === 'insert') return Buffer.concat([wire.subarray(0, at), b, wire.subarray(at)]);
  if (m.kind === 'delete') return Buffer.concat([wire.subarray(0, at), wire.subarray(at + 1)]);
  if (m.kind === 'dup') return Buffer.concat([wire.subarray(0, at), wire.subarray(Math.max(at - 1, 0))]);
  return wire.subarray(0, at);
}

function failIfNotBodyError(error: unknown): void {
  if (!isS3Error(error) || !BODY_CODES.has(error.code) || error.status < 400 || error.status > 499)
    throw new Error(`not a 4xx body error: ${String(error)}`);
}

describe('aws-chunked decoder (property)', () => {
  it('decodes every framing and slicing of a body to its bytes', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const r = await decode(c, encode(c));
        if (r.error) throw r.error;
        expect(r.ended).toBe(true);
        expect(r.data.equals(c.data)).toBe(true);
      }),
      { ...FUZZ },
    );
  });

  it('damaged wire: a 4xx body error before end, or (signed) exactly the original bytes', {
    timeout: TIMEOUT,
  }, async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(caseArb, fc.array(mutationArb, { minLength: 1, maxLength: 3 }), async (c, ms) => {
        const wire = ms.reduce(mutate, encode(c));
        const r = await decode(c, wire);
        const outcome = r.error ? (r.error.code ?? 'non-S3') : 'accepted';
        seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
        if (r.error) {
          failIfNotBodyError(r.error);
          expect(r.ended).toBe(false);
          return;
        }
        expect(r.ended).toBe(true);
        expect(r.data.length).toBe(c.data.length); // x-amz-decoded-content-length holds
        if (c.signed) expect(r.data.equals(c.data)).toBe(true);
      }),
      { ...FUZZ },
    );
    // every refusal kind the decoder has was reached
    for (const code of BODY_CODES) expect(seen.get(code) ?? 0, `${code} in ${[...seen]}`).toBeGreaterThan(0);
  });

  it('random bytes never crash the decoder and fail with a 4xx body error', {
    timeout: TIMEOUT,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 4 }),
        async (bytes, signed, slices) => {
          const c: Case = { data: Buffer.alloc(0), signed, chunkSize: 1, trailer: false, slices };
          const r = await decode(c, Buffer.from(bytes));
          if (r.error) failIfNotBodyError(r.error);
          else expect(r.data.length).toBe(0);
        },
      ),
      { ...FUZZ },
    );
  });
});
