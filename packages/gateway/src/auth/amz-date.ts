// Request timestamps: SigV4's ISO 8601 basic form (x-amz-date, X-Amz-Date) and the HTTP Date
// header some clients sign instead.
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** Parses `yyyyMMdd'T'HHmmss'Z'`; undefined for anything else, including impossible dates. */
export function parseAmzDate(text: string): Date | undefined {
  const m = AMZ_DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Date.UTC rolls impossible fields over (Feb 30 -> Mar 2, 24:00 -> the next day) and maps
  // years 0-99 to 19xx: such a date comes back with other fields than the ones sent.
  const same =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  return same ? date : undefined;
}

export function formatAmzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** An RFC 7231 Date header value. */
export function parseHttpDate(text: string): Date | undefined {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/**
 * SigV2's Date or x-amz-date: an HTTP date (RFC 1123, `Tue, 07 Jul 2026 21:53:04 GMT`, the
 * weekday optional) or SigV4's basic form. Stricter than Date.parse, which reads '1' as 2001.
 */
const RFC_1123 =
  /^(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s+(?:GMT|UTC|UT|Z|[+-]\d{4})$/;

export function parseV2Date(text: string): Date | undefined {
  const trimmed = text.trim();
  if (RFC_1123.test(trimmed)) return parseHttpDate(trimmed);
  return parseAmzDate(trimmed);
}
