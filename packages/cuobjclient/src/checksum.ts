// Full-object checksums the SDK can send with an RDMA PUT (x-amz-checksum-<algo>, over the raw
// buffer, base64 of the big-endian CRC as S3 encodes it). Each algorithm is a row of
// @vgwrdma/backend-contract's checksum registry — the implementation the gateway checks with (CRC32 on
// node:zlib; CRC32C on the shim's SSE4.2 kernel once the native kernels are installed, which
// opening a session does, else on the WebAssembly kernel), so client and gateway cannot differ.
import { getChecksum } from '@vgwrdma/backend-contract';

export type ChecksumAlgorithm = 'crc32' | 'crc32c';

/** This SDK's lower-case names → the registry's algorithms. */
const REGISTRY = { crc32: 'CRC32', crc32c: 'CRC32C' } as const;

/** Algorithm → the request/response header carrying it. */
export const CHECKSUMS: Readonly<Record<ChecksumAlgorithm, { readonly header: string }>> = {
  crc32: { header: getChecksum(REGISTRY.crc32).header },
  crc32c: { header: getChecksum(REGISTRY.crc32c).header },
};

/** `{ header, value }` of `algorithm` over `data`. */
export function checksumHeader(
  algorithm: ChecksumAlgorithm,
  data: Uint8Array,
): { header: string; value: string } {
  const spec = getChecksum(REGISTRY[algorithm]);
  const hasher = spec.create();
  hasher.update(data);
  return { header: spec.header, value: hasher.digest() };
}
