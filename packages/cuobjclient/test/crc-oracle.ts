// Independent CRCs for the tests' expected header values: @aws-crypto/crc32c (the AWS SDK's own)
// and node:zlib's CRC32, as base64 of the big-endian value like S3 sends them.
import { crc32 } from 'node:zlib';
import { crc32c } from '@aws-crypto/crc32c';

function base64(crc: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc >>> 0);
  return b.toString('base64');
}

export const crc32cBase64 = (data: Uint8Array): string => base64(crc32c(data));
export const crc32Base64 = (data: Uint8Array): string => base64(crc32(data));
