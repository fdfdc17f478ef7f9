// The SigV4 canonical request, built from the request exactly as it came off the wire. S3 signs
// the path without normalising it (no '//' or '.' folding, no double encoding), so the raw path is
// the first candidate; a client that sent characters unescaped or escapes in lower case signed
// the canonical re-encoding instead, which is the second. A '+' in the query is read as a space
// (as form encoders mean it, and as the router decodes it); a plus is sent as %2B.
import type { RequestHeaders } from './types.js';
import { reencode } from './uri-encoding.js';

export interface RawQueryParam {
  readonly name: string;
  readonly value: string;
}

/** Splits a raw query into its still-encoded name/value pairs ('a&b=' gives two empty values). */
export function splitRawQuery(rawQuery: string): RawQueryParam[] {
  const params: RawQueryParam[] = [];
  for (const piece of rawQuery.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    params.push(
      eq < 0 ? { name: piece, value: '' } : { name: piece.slice(0, eq), value: piece.slice(eq + 1) },
    );
  }
  return params;
}

/** Candidate canonical URIs, most likely first, without duplicates. */
export function canonicalUris(rawPath: string): string[] {
  const path = rawPath === '' ? '/' : rawPath;
  const normalised = path
    .split('/')
    .map((segment) => reencode(segment, false, false))
    .join('/');
  return normalised === path ? [path] : [path, normalised];
}

/** Canonical query string: every pair re-encoded, sorted by name then value. */
function canonicalQuery(params: readonly RawQueryParam[], plusAsSpace: boolean, omit?: string): string {
  const pairs: [string, string][] = [];
  for (const { name, value } of params) {
    const encodedName = reencode(name, false, plusAsSpace);
    if (omit !== undefined && encodedName === omit) continue;
    pairs.push([encodedName, reencode(value, false, plusAsSpace)]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([n, v]) => `${n}=${v}`).join('&');
}

/**
 * The canonical query, with '+' read as a space: the one reading that matches what the router
 * acts on (URLSearchParams). Reading it as a literal plus too would let anyone turn a signed %2B
 * into '+' and change the query (prefix, versionId, ...) without breaking the signature.
 */
export function canonicalQueries(rawQuery: string, omit?: string): string[] {
  return [canonicalQuery(splitRawQuery(rawQuery), rawQuery.includes('+'), omit)];
}

const SPACES = /\s+/g;

/**
 * The canonical headers block (each `name:value\n`, repeated values trimmed and joined with ',')
 * for the signed header names, or undefined
 * when a signed header is absent from the request (the signature cannot match then). The names
 * come from the client: only the headers object's own entries count, so `constructor` or
 * `__proto__` read as absent and not as Object.prototype's members.
 */
export function canonicalHeaders(
  headers: RequestHeaders,
  signedHeaders: readonly string[],
): string | undefined {
  let block = '';
  for (const name of signedHeaders) {
    const raw = Object.hasOwn(headers, name) ? headers[name] : undefined;
    if (raw === undefined) return undefined;
    const values = typeof raw === 'string' ? [raw] : raw;
    block += `${name}:${values.map((v) => v.trim().replace(SPACES, ' ')).join(',')}\n`;
  }
  return block;
}

export interface CanonicalParts {
  method: string;
  uri: string;
  query: string;
  headers: string;
  signedHeaders: string;
  payloadHash: string;
}

export function canonicalRequest(p: CanonicalParts): string {
  return `${p.method}\n${p.uri}\n${p.query}\n${p.headers}\n${p.signedHeaders}\n${p.payloadHash}`;
}
