// One aws-chunked chunk header line, `hex-size[;chunk-signature=sig]` (CRLF already removed).
import { bodyErrors } from './body-errors.js';

interface ChunkHeader {
  size: number;
  /** The chunk-signature extension, when present. */
  signature: string | undefined;
}

const HEX_SIZE = /^[0-9a-fA-F]{1,13}$/; // 13 hex digits: beyond any object size, within 2^53
const SIGNATURE_EXT = 'chunk-signature=';

export function parseChunkHeader(line: string): ChunkHeader {
  const semi = line.indexOf(';');
  const sizeText = (semi < 0 ? line : line.slice(0, semi)).trim();
  if (!HEX_SIZE.test(sizeText)) throw bodyErrors.badChunkSize();
  let signature: string | undefined;
  if (semi >= 0) {
    for (const ext of line.slice(semi + 1).split(';')) {
      const trimmed = ext.trim();
      if (trimmed.startsWith(SIGNATURE_EXT)) signature = trimmed.slice(SIGNATURE_EXT.length);
    }
  }
  return { size: Number.parseInt(sizeText, 16), signature };
}
