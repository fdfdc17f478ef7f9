// <ChecksumCRC32>…</ChecksumCRC32> elements for whichever checksums a result carries.
import { CHECKSUM_ALGORITHMS, type Checksums } from '@vgwrdma/backend-contract';
import { el } from './document.js';

export function checksumElements(checksums: Checksums | undefined): string {
  if (!checksums) return '';
  return CHECKSUM_ALGORITHMS.map((alg) => el(`Checksum${alg}`, checksums[alg])).join('');
}
