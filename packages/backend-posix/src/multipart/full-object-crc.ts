// Full-object CRCs of a multipart object from its parts' CRCs and sizes, without the data:
// crc(A || B) = combine(crc(A), crc(B), len(B)) (the registry's GF(2) combination). Parts
// written by us carry CRC64NVME (and the upload's CRC, if it named one); when any part lacks
// one (written by another gateway, or --nometa), the caller re-reads the data instead.
import { type ChecksumAlgorithm, getChecksum } from '@vgwrdma/backend-contract';

export interface PartCrc {
  /** base64 CRC of the part, if known. */
  crc?: string | undefined;
  size: number;
}

/** The CRC of the concatenation, or undefined when a part's CRC is unknown or `alg` is no CRC. */
export function combinePartCrcs(alg: ChecksumAlgorithm, parts: readonly PartCrc[]): string | undefined {
  const combine = getChecksum(alg).combine;
  if (!combine || parts.length === 0) return undefined;
  let acc: string | undefined;
  for (const p of parts) {
    if (p.crc === undefined) return undefined;
    acc = acc === undefined ? p.crc : combine(acc, p.crc, p.size);
  }
  return acc;
}
