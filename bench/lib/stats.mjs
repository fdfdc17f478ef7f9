// Small numeric helpers shared by the harness: median, rounding, size names.

export const MiB = 2 ** 20;
export const GiB = 2 ** 30;

export function median(xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const round = (x, digits = 3) => (x === null || x === undefined ? null : Number(x.toFixed(digits)));

export function sizeName(bytes) {
  if (bytes >= GiB && bytes % GiB === 0) return `${bytes / GiB}GiB`;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB}MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024}KiB`;
  return `${bytes}B`;
}
