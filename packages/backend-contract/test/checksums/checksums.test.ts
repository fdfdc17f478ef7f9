// The checksum registry against published check values and against the implementations
// @aws-sdk/client-s3@3.1175.0 uses (@aws-sdk/checksums/crc, @aws-sdk/crc64-nvme, and the older
// @aws-crypto/crc32c), and CRC combination against the CRC of the concatenation.

import { createHash, randomBytes } from 'node:crypto';
import { Crc32c as AwsCryptoCrc32c } from '@aws-crypto/crc32c';
import {
  Crc32 as SdkCrc32,
  Crc32c as SdkCrc32c,
  Crc64Nvme as SdkCrc64NvmeChecksums,
} from '@aws-sdk/checksums/crc';
import { Crc64Nvme as SdkCrc64Nvme } from '@aws-sdk/crc64-nvme';
import { InvalidArgumentError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { combineCrc, crcField, mulMod, xPow8nMod } from '../../src/checksums/crc-combine.js';
import {
  algorithmOfHeader,
  CHECKSUMS,
  checksumHeader,
  getChecksum,
  md5ETag,
  multipartETag,
  parseChecksumAlgorithm,
} from '../../src/checksums/registry.js';
import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm } from '../../src/types/common.js';

function digest(alg: ChecksumAlgorithm, ...chunks: Uint8Array[]): string {
  const h = getChecksum(alg).create();
  for (const c of chunks) h.update(c);
  return h.digest();
}

const hex = (b64: string) => Buffer.from(b64, 'base64').toString('hex');

/** Splits `data` at random points, so incremental updates are exercised at odd boundaries. */
function randomChunks(data: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let i = 0;
  while (i < data.length) {
    const n = 1 + Math.floor(Math.random() * 40);
    out.push(data.subarray(i, i + n));
    i += n;
  }
  return out;
}

const CRCS = ['CRC32', 'CRC32C', 'CRC64NVME'] as const;

describe('check values ("123456789")', () => {
  const check = Buffer.from('123456789');
  it.each<[ChecksumAlgorithm, string]>([
    ['CRC32', 'cbf43926'],
    ['CRC32C', 'e3069283'],
    ['CRC64NVME', 'ae8b14860a799888'],
    ['SHA1', 'f7c3bc1d808e04732adf679965ccc34ca7ae3441'],
    ['SHA256', '15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225'],
  ])('%s = %s', (alg, want) => {
    expect(hex(digest(alg, check))).toBe(want);
  });

  it.each<[ChecksumAlgorithm, string]>([
    ['CRC32', '00000000'],
    ['CRC32C', '00000000'],
    ['CRC64NVME', '0000000000000000'],
    ['SHA256', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ])('%s of no bytes = %s', (alg, want) => {
    expect(hex(digest(alg))).toBe(want);
  });

  it.each(CHECKSUM_ALGORITHMS)(
    '%s: an empty chunk (even over a zero-length ArrayBuffer) changes nothing',
    (alg) => {
      const data = Buffer.from('123456789');
      // randomBytes(0) is backed by a zero-length ArrayBuffer: node:zlib crc32 returns 0 for it.
      expect(digest(alg, data, randomBytes(0), new Uint8Array(0))).toBe(digest(alg, data));
    },
  );

  it('digests have the registered size', () => {
    for (const alg of CHECKSUM_ALGORITHMS) {
      expect(Buffer.from(digest(alg, check), 'base64').length).toBe(CHECKSUMS[alg].size);
    }
  });
});

describe('agreement with the SDK implementations', () => {
  const sdk: Record<
    (typeof CRCS)[number],
    () => { update(d: Uint8Array): void; digest(): Promise<Uint8Array> }
  > = {
    CRC32: () => new SdkCrc32(),
    CRC32C: () => new SdkCrc32c(),
    CRC64NVME: () => new SdkCrc64Nvme(),
  };
  const sizes = [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4096 + 3, 100_000];

  it.each(CRCS)('%s equals the SDK value for random inputs, whole and chunked', async (alg) => {
    for (const size of sizes) {
      const data = randomBytes(size);
      const ref = sdk[alg]();
      ref.update(data);
      const want = Buffer.from(await ref.digest()).toString('base64');
      expect(digest(alg, data), `size ${size}`).toBe(want);
      expect(digest(alg, ...randomChunks(data)), `size ${size}, chunked`).toBe(want);
    }
  });

  it('CRC32C equals @aws-crypto/crc32c for random inputs', () => {
    for (const size of sizes) {
      const data = randomBytes(size);
      const ref = new AwsCryptoCrc32c().update(data).digest() >>> 0;
      expect(hex(digest('CRC32C', ...randomChunks(data))), `size ${size}`).toBe(
        ref.toString(16).padStart(8, '0'),
      );
    }
  });

  it('inputs larger than the kernel window (256 KiB) and unaligned views agree with the SDK', async () => {
    const big = randomBytes(3 * 256 * 1024 + 13);
    const view = big.subarray(5); // odd byteOffset
    for (const alg of ['CRC32C', 'CRC64NVME'] as const) {
      const ref = sdk[alg]();
      ref.update(view);
      expect(digest(alg, view)).toBe(Buffer.from(await ref.digest()).toString('base64'));
    }
  });

  it('@aws-sdk/crc64-nvme and @aws-sdk/checksums/crc are the same CRC64NVME', async () => {
    const data = randomBytes(12345);
    const a = new SdkCrc64Nvme();
    const b = new SdkCrc64NvmeChecksums();
    a.update(data);
    b.update(data);
    expect(Buffer.from(await a.digest())).toEqual(Buffer.from(await b.digest()));
  });

  it('SHA1 and SHA256 equal node:crypto base64 digests (what the SDK sends)', () => {
    const data = randomBytes(5000);
    expect(digest('SHA1', ...randomChunks(data))).toBe(createHash('sha1').update(data).digest('base64'));
    expect(digest('SHA256', ...randomChunks(data))).toBe(createHash('sha256').update(data).digest('base64'));
  });
});

describe('CRC combination', () => {
  it.each(CRCS)('%s: combine(crc(A), crc(B), len(B)) = crc(A || B) for random inputs', (alg) => {
    const combine = CHECKSUMS[alg].combine;
    expect(combine).toBeDefined();
    for (let trial = 0; trial < 40; trial++) {
      const a = randomBytes(Math.floor(Math.random() * 3000));
      const b = randomBytes(trial < 4 ? trial : Math.floor(Math.random() * 3000));
      expect(combine?.(digest(alg, a), digest(alg, b), b.length), `|A|=${a.length} |B|=${b.length}`).toBe(
        digest(alg, a, b),
      );
    }
  });

  it.each(CRCS)('%s: folding many parts equals the CRC of all of them (multipart full-object)', (alg) => {
    const parts = [randomBytes(5 * 1024 * 1024), randomBytes(70_001), randomBytes(1), randomBytes(333)];
    const combine = CHECKSUMS[alg].combine as NonNullable<(typeof CHECKSUMS)[typeof alg]['combine']>;
    let acc = digest(alg, parts[0] as Buffer);
    for (const p of parts.slice(1)) acc = combine(acc, digest(alg, p), p.length);
    expect(acc).toBe(digest(alg, ...parts));
  });

  it('combining with an empty B is the identity', () => {
    const a = randomBytes(100);
    for (const alg of CRCS)
      expect(CHECKSUMS[alg].combine?.(digest(alg, a), digest(alg), 0)).toBe(digest(alg, a));
  });

  it('SHA algorithms offer no combination', () => {
    expect(CHECKSUMS.SHA1.combine).toBeUndefined();
    expect(CHECKSUMS.SHA256.combine).toBeUndefined();
  });

  it('GF(2) helpers: x^0 is the identity, x^(8n) composes additively', () => {
    const f = crcField(32, 0xedb88320n);
    const one = 1n << 31n;
    expect(mulMod(f, one, 0x12345678n)).toBe(0x12345678n);
    expect(mulMod(f, xPow8nMod(f, 3), xPow8nMod(f, 5))).toBe(xPow8nMod(f, 8));
    expect(xPow8nMod(f, 0)).toBe(one);
    expect(() => combineCrc(f, 1n, 2n, -1)).toThrow(InvalidArgumentError);
  });

  it('rejects a CRC of the wrong width', () => {
    expect(() => CHECKSUMS.CRC32.combine?.(digest('CRC64NVME'), digest('CRC32'), 1)).toThrow(
      InvalidArgumentError,
    );
  });
});

describe('registry lookups', () => {
  it('names the x-amz-checksum-* header of each algorithm and maps it back', () => {
    expect(checksumHeader('CRC32')).toBe('x-amz-checksum-crc32');
    expect(checksumHeader('CRC32C')).toBe('x-amz-checksum-crc32c');
    expect(checksumHeader('CRC64NVME')).toBe('x-amz-checksum-crc64nvme');
    expect(checksumHeader('SHA1')).toBe('x-amz-checksum-sha1');
    expect(checksumHeader('SHA256')).toBe('x-amz-checksum-sha256');
    for (const alg of CHECKSUM_ALGORITHMS) {
      expect(algorithmOfHeader(checksumHeader(alg))).toBe(alg);
      expect(algorithmOfHeader(checksumHeader(alg).toUpperCase())).toBe(alg);
      expect(CHECKSUMS[alg].algorithm).toBe(alg);
    }
    expect(algorithmOfHeader('x-amz-checksum-md5')).toBeUndefined();
  });

  it('parses algorithm names case-insensitively and rejects unsupported ones', () => {
    expect(parseChecksumAlgorithm('crc32c')).toBe('CRC32C');
    expect(parseChecksumAlgorithm('Crc64Nvme')).toBe('CRC64NVME');
    expect(parseChecksumAlgorithm(' SHA256 ')).toBe('SHA256');
    expect(parseChecksumAlgorithm('MD5')).toBeUndefined();
    expect(parseChecksumAlgorithm('SHA512')).toBeUndefined();
    expect(parseChecksumAlgorithm('')).toBeUndefined();
    expect(parseChecksumAlgorithm(undefined)).toBeUndefined();
  });
});

describe('ETags', () => {
  it('md5ETag is the quoted hex MD5', () => {
    expect(md5ETag(Buffer.alloc(0))).toBe('"d41d8cd98f00b204e9800998ecf8427e"');
    expect(md5ETag(Buffer.from('hello'))).toBe('"5d41402abc4b2a76b9719d911017c592"');
  });

  it('multipartETag is the MD5 of the binary part MD5s plus "-N", quotes optional on input', () => {
    const parts = [randomBytes(100), randomBytes(200), randomBytes(3)];
    const binary = Buffer.concat(parts.map((p) => createHash('md5').update(p).digest()));
    const want = `"${createHash('md5').update(binary).digest('hex')}-3"`;
    expect(multipartETag(parts.map(md5ETag))).toBe(want);
    expect(multipartETag(parts.map((p) => md5ETag(p).replace(/"/g, '')))).toBe(want);
  });
});
