// Byte sizes as operators type them: one rule for every size option (vgwrdma's --pool-buf-size,
// --etag-part-size, cuobjtest's -size/-sizes). A whole number of bytes, or a number with a unit,
// case-insensitive: B; K, M, G, T and KiB, MiB, GiB, TiB are binary (1024^n); KB, MB, GB, TB are
// decimal (1000^n). A fraction is allowed when the result is whole bytes (1.5KiB = 1536).
// Formatting picks the largest binary unit.
import { VgwrdmaError } from '@vgwrdma/errors';

const KiB = 2 ** 10;

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: KiB,
  kib: KiB,
  kb: 1e3,
  m: KiB ** 2,
  mib: KiB ** 2,
  mb: 1e6,
  g: KiB ** 3,
  gib: KiB ** 3,
  gb: 1e9,
  t: KiB ** 4,
  tib: KiB ** 4,
  tb: 1e12,
};

/** The accepted forms, in words: the tail of every byte-size message and of the --help texts. */
export const BYTE_SIZE_FORMS =
  'bytes (67108864) or a number with a unit: K/KiB, M/MiB, G/GiB, T/TiB = 1024^n; KB, MB, GB, TB = 1000^n';

/** A size the rule refuses, or one outside the caller's bounds. `text` is what was given. */
export class ByteSizeError extends VgwrdmaError<'VGW_ERR_INVALID_BYTE_SIZE'> {
  override readonly name = 'ByteSizeError';
  constructor(
    readonly text: string,
    why: string,
  ) {
    super('VGW_ERR_INVALID_BYTE_SIZE', `invalid size '${text}': ${why}`);
  }
}

export interface ByteSizeBounds {
  /** Smallest accepted size in bytes (default 1: zero is refused). */
  readonly min?: number;
  /** Largest accepted size in bytes (default Number.MAX_SAFE_INTEGER). */
  readonly max?: number;
}

/** '64MiB' → 67108864, '64MB' → 64000000, '4096' → 4096; throws ByteSizeError otherwise. */
export function parseByteSize(text: string, bounds: ByteSizeBounds = {}): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[(m[2] ?? '').toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new ByteSizeError(text, `expected ${BYTE_SIZE_FORMS}`);
  const bytes = Number(m[1]) * unit;
  if (!Number.isSafeInteger(bytes)) throw new ByteSizeError(text, 'not a whole number of bytes');
  const min = bounds.min ?? 1;
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  if (bytes < min) throw new ByteSizeError(text, `must be at least ${inWords(min)}`);
  if (bytes > max) throw new ByteSizeError(text, `must be at most ${inWords(max)}`);
  return bytes;
}

/** 4096 → '4096 bytes (4KiB)', 1 → '1 byte'. */
function inWords(n: number): string {
  if (n < KiB) return n === 1 ? '1 byte' : `${n} bytes`;
  return `${n} bytes (${formatByteSize(n)})`;
}

const FORMAT_UNITS: readonly (readonly [string, number])[] = [
  ['TiB', KiB ** 4],
  ['GiB', KiB ** 3],
  ['MiB', KiB ** 2],
  ['KiB', KiB],
];

/** 67108864 → '64MiB', 1000 → '1000B', 1536 → '1.5KiB' (binary units only). */
export function formatByteSize(bytes: number): string {
  for (const [name, unit] of FORMAT_UNITS) {
    if (bytes >= unit && bytes % unit === 0) return `${bytes / unit}${name}`;
  }
  for (const [name, unit] of FORMAT_UNITS) {
    if (bytes >= unit) return `${(bytes / unit).toFixed(1)}${name}`;
  }
  return `${bytes}B`;
}
