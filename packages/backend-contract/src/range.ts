// Range headers: parse `bytes=a-b`, `bytes=a-`, `bytes=-n` and resolve against an object size.
import { S3Error } from './errors/s3-error.js';
import type { ByteRange, ResolvedRange } from './types/common.js';

const RANGE_RE = /^bytes=(\d*)-(\d*)$/;

/**
 * Parses a Range header. Like S3, a syntactically invalid or multi-range header is ignored
 * (undefined: the whole object is returned); only an unsatisfiable range is an error, and that
 * needs the size, so it is raised by resolveRange.
 */
export function parseRange(header: string | undefined): ByteRange | undefined {
  if (!header) return undefined;
  const m = RANGE_RE.exec(header.trim());
  if (!m) return undefined;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return undefined;
  if (a === '') return { kind: 'suffix', length: Number(b) };
  const first = Number(a);
  if (b === '') return { kind: 'range', first };
  // Compared exactly: past 2^53 two different numbers can become the same double.
  if (BigInt(b) < BigInt(a)) return undefined;
  const last = Number(b);
  return { kind: 'range', first, last };
}

/** Resolves a range against `size`; InvalidRange when nothing of it lies inside the object. */
export function resolveRange(range: ByteRange, size: number): ResolvedRange {
  if (range.kind === 'suffix') {
    if (range.length === 0 || size === 0) throw invalidRange(size);
    const length = Math.min(range.length, size);
    return { start: size - length, end: size - 1, size };
  }
  if (range.first >= size) throw invalidRange(size);
  const end = Math.min(range.last ?? size - 1, size - 1);
  return { start: range.first, end, size };
}

export function contentRangeHeader(r: ResolvedRange): string {
  return `bytes ${r.start}-${r.end}/${r.size}`;
}

function invalidRange(size: number): S3Error {
  return new S3Error('InvalidRange', undefined, { detail: { ActualObjectSize: String(size) } });
}
