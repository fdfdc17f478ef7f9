// Deterministic object bytes: an object's content is a function of its key (an AES-CTR keystream
// seeded by the key's hash), so after a crash every visible object can be checked byte for byte
// and against its ETag without having kept a copy. Keys carry their size and part size.
import { createCipheriv, createHash } from 'node:crypto';

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest();

/** Fills `out` with the content of `key` from byte `offset` (offset must be a multiple of 16). */
export function fillContent(key: string, out: Uint8Array, offset = 0): void {
  if (offset % 16 !== 0) throw new RangeError('offset must be a multiple of 16');
  const seed = createHash('sha256').update(key).digest();
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(offset / 16), 8);
  const cipher = createCipheriv('aes-128-ctr', seed.subarray(0, 16), iv);
  const zeros = Buffer.alloc(Math.min(out.length, 4 << 20));
  for (let o = 0; o < out.length; o += zeros.length) {
    const n = Math.min(zeros.length, out.length - o);
    Buffer.from(out.buffer, out.byteOffset + o, n).set(cipher.update(zeros.subarray(0, n)));
  }
}

export function content(key: string, size: number): Buffer {
  const b = Buffer.allocUnsafe(size);
  fillContent(key, b);
  return b;
}

export interface ObjectSpec {
  readonly size: number;
  /** Part size of a multipart object (every part but the last); undefined for a single PUT. */
  readonly partSize?: number;
}

/** `<prefix>/<id>~<size>[~<partSize>]`: the key says what the object must be. */
export function specKey(prefix: string, id: string, spec: ObjectSpec): string {
  return `${prefix}/${id}~${spec.size}${spec.partSize === undefined ? '' : `~${spec.partSize}`}`;
}

export function parseSpecKey(key: string): ObjectSpec | undefined {
  const m = /~(\d+)(?:~(\d+))?$/.exec(key);
  if (!m?.[1]) return undefined;
  return m[2] === undefined ? { size: Number(m[1]) } : { size: Number(m[1]), partSize: Number(m[2]) };
}

/** The S3 ETag (quoted) of `data` stored as `spec` says: MD5, or MD5 of part MD5s + `-N`. */
export function expectedETag(data: Uint8Array, spec: ObjectSpec): string {
  if (spec.partSize === undefined) return `"${md5(data).toString('hex')}"`;
  const sums: Buffer[] = [];
  for (let o = 0; o < data.length; o += spec.partSize) sums.push(md5(data.subarray(o, o + spec.partSize)));
  return `"${md5(Buffer.concat(sums)).toString('hex')}-${sums.length}"`;
}
