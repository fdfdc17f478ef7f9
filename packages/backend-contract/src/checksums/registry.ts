// The checksum registry: one table from S3 checksum algorithm to its header, a hasher factory
// and (for CRCs) a combine function. Every place that handles x-amz-checksum-* looks here
// instead of switching on the algorithm name.

import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { ChecksumAlgorithm } from '../types/common.js';
import { CHECKSUM_ALGORITHMS } from '../types/common.js';
import { base64Combiner, crcField, crcToBase64 } from './crc-combine.js';
import { CRC32C_POLY, CRC64NVME_POLY, createCrc32c, createCrc64Nvme } from './crc-hashers.js';
import type { ChecksumSpec, Hasher } from './types.js';

/** Reflected CRC32 polynomial; with the others it defines the GF(2) fields combine works in. */
const CRC32_POLY = 0xedb88320n;

/** CRC32 via node:zlib (native, Node >= 20.15). */
class Crc32Hasher implements Hasher {
  private value = 0;
  update(chunk: Uint8Array): void {
    // node:zlib crc32 answers 0, not the running value, for an empty view over a zero-length
    // ArrayBuffer (zlib's crc32 with a NULL buffer): skip empty chunks so they cannot reset it.
    if (chunk.length === 0) return;
    this.value = crc32(chunk, this.value);
  }
  digest(): string {
    return crcToBase64(BigInt(this.value >>> 0), 4);
  }
}

/** node:crypto hashes (SHA1, SHA256, MD5), base64. */
function cryptoHasher(name: 'sha1' | 'sha256' | 'md5'): Hasher {
  const h = createHash(name);
  return {
    update: (chunk) => void h.update(chunk),
    digest: () => h.digest('base64'),
  };
}

export const CHECKSUMS: { readonly [A in ChecksumAlgorithm]: ChecksumSpec & { readonly algorithm: A } } = {
  CRC32: {
    algorithm: 'CRC32',
    header: 'x-amz-checksum-crc32',
    size: 4,
    create: () => new Crc32Hasher(),
    combine: base64Combiner(crcField(32, CRC32_POLY)),
  },
  CRC32C: {
    algorithm: 'CRC32C',
    header: 'x-amz-checksum-crc32c',
    size: 4,
    create: createCrc32c,
    combine: base64Combiner(crcField(32, CRC32C_POLY)),
  },
  CRC64NVME: {
    algorithm: 'CRC64NVME',
    header: 'x-amz-checksum-crc64nvme',
    size: 8,
    create: createCrc64Nvme,
    combine: base64Combiner(crcField(64, CRC64NVME_POLY)),
  },
  SHA1: { algorithm: 'SHA1', header: 'x-amz-checksum-sha1', size: 20, create: () => cryptoHasher('sha1') },
  SHA256: {
    algorithm: 'SHA256',
    header: 'x-amz-checksum-sha256',
    size: 32,
    create: () => cryptoHasher('sha256'),
  },
};

export function getChecksum<A extends ChecksumAlgorithm>(alg: A): ChecksumSpec & { readonly algorithm: A } {
  return CHECKSUMS[alg];
}

export function checksumHeader(alg: ChecksumAlgorithm): ChecksumSpec['header'] {
  return CHECKSUMS[alg].header;
}

/**
 * Parses an algorithm name as clients send it (x-amz-checksum-algorithm,
 * x-amz-sdk-checksum-algorithm): case-insensitive. Undefined when it is not one we support.
 */
export function parseChecksumAlgorithm(s: string | undefined): ChecksumAlgorithm | undefined {
  if (!s) return undefined;
  const upper = s.trim().toUpperCase();
  return CHECKSUM_ALGORITHMS.find((a) => a === upper);
}

/** The algorithm a header name carries (`x-amz-checksum-crc32c` → CRC32C), if any. */
export function algorithmOfHeader(header: string): ChecksumAlgorithm | undefined {
  const lower = header.toLowerCase();
  return CHECKSUM_ALGORITHMS.find((a) => CHECKSUMS[a].header === lower);
}

/** An MD5 hasher (base64 digest), for Content-MD5. */
export function createMd5(): Hasher {
  return cryptoHasher('md5');
}

/** The hex MD5 of `data`, quoted, as an S3 ETag of a single-part object. */
export function md5ETag(data: Uint8Array): string {
  return `"${createHash('md5').update(data).digest('hex')}"`;
}

/**
 * The ETag of a multipart object: MD5 of the concatenated binary part MD5s, then `-N`. Part
 * ETags may be given quoted or not.
 */
export function multipartETag(partETags: readonly string[]): string {
  const h = createHash('md5');
  for (const etag of partETags) h.update(Buffer.from(etag.replace(/"/g, ''), 'hex'));
  return `"${h.digest('hex')}-${partETags.length}"`;
}
