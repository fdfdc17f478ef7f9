// The SDK's names for the five checksum algorithms (ChecksumCRC32, ...) and the digests this
// process computes itself with node:crypto / node:zlib, shared by the checksum e2e tests.
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { ChecksumType } from '@aws-sdk/client-s3';

export const ALGORITHMS = ['CRC32', 'CRC32C', 'CRC64NVME', 'SHA1', 'SHA256'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** The request/response field of each algorithm. */
export const FIELD = {
  CRC32: 'ChecksumCRC32',
  CRC32C: 'ChecksumCRC32C',
  CRC64NVME: 'ChecksumCRC64NVME',
  SHA1: 'ChecksumSHA1',
  SHA256: 'ChecksumSHA256',
} as const satisfies Record<Algorithm, string>;

export type ChecksumFields = Partial<Record<(typeof FIELD)[Algorithm], string>> & {
  ChecksumType?: ChecksumType | string;
};

/** What node computes without the gateway's code (CRC32C/CRC64NVME values come from the SDK). */
export const LOCAL: Partial<Record<Algorithm, (data: Buffer) => Buffer>> = {
  CRC32: (data) => {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(crc32(data));
    return out;
  },
  SHA1: (data) => createHash('sha1').update(data).digest(),
  SHA256: (data) => createHash('sha256').update(data).digest(),
};
