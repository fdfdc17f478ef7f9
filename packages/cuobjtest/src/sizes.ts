// Byte sizes on the command line: a number with an optional suffix from one table (B, K/KB/KiB,
// M/MB/MiB, G/GB/GiB, case-insensitive). As in vgwrdma's cuobjtest, K/M/G and KiB/MiB/GiB are
// binary; KB/MB/GB are decimal. Formatting picks the largest binary unit that divides evenly.

const SUFFIXES: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 2 ** 10,
  kib: 2 ** 10,
  kb: 1e3,
  m: 2 ** 20,
  mib: 2 ** 20,
  mb: 1e6,
  g: 2 ** 30,
  gib: 2 ** 30,
  gb: 1e9,
};

/** Parses '64MiB', '1g', '4096'; returns an error text for anything else. */
export function parseSize(text: string): number | string {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? SUFFIXES[(m[2] ?? '').toLowerCase()] : undefined;
  if (!m || unit === undefined) {
    return `invalid size '${text}' (a number with an optional B, K, KB, KiB, M, MB, MiB, G, GB or GiB suffix)`;
  }
  const bytes = Number(m[1]) * unit;
  if (!Number.isSafeInteger(bytes) || bytes <= 0)
    return `invalid size '${text}' (must be a whole, positive number of bytes)`;
  return bytes;
}

const UNITS: readonly [string, number][] = [
  ['GiB', 2 ** 30],
  ['MiB', 2 ** 20],
  ['KiB', 2 ** 10],
];

/** 67108864 → '64MiB', 1000 → '1000B', 1536 → '1.5KiB'. */
export function formatSize(bytes: number): string {
  for (const [name, unit] of UNITS) {
    if (bytes >= unit && bytes % unit === 0) return `${bytes / unit}${name}`;
  }
  for (const [name, unit] of UNITS) {
    if (bytes >= unit) return `${(bytes / unit).toFixed(1)}${name}`;
  }
  return `${bytes}B`;
}
