// CORS at the HTTP edge: the OPTIONS preflight answer (200 with Access-Control-* headers, 400
// without Origin or Access-Control-Request-Method, or 403 AccessForbidden), and the headers
// added to an actual request that carries an Origin.
import { S3Error } from '@vgwrdma/backend-contract';
import { header, type RawHeaders } from '../http/headers.js';
import type { CorsRule } from './cors-config.js';
import { type CorsQuery, corsHeaders, matchCorsRule } from './cors-match.js';

function requestedHeaders(headers: RawHeaders): string[] {
  const raw = header(headers, 'access-control-request-headers');
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
}

/** The preflight answer for a bucket with `rules` (undefined: no CORS configuration). */
export function preflightResponse(rules: readonly CorsRule[] | undefined, headers: RawHeaders): Response {
  const origin = header(headers, 'origin');
  const method = header(headers, 'access-control-request-method')?.trim().toUpperCase();
  if (origin === undefined)
    throw new S3Error('BadRequest', 'Insufficient information. Origin request header needed.');
  // Without the method it asks about, a preflight is as malformed as without an Origin.
  if (!method) throw S3Error.custom('BadRequest', 'Invalid Access-Control-Request-Method: null');
  if (!rules || rules.length === 0)
    throw new S3Error('AccessForbidden', 'CORSResponse: CORS is not enabled for this bucket.');
  const q: CorsQuery | undefined = origin
    ? { origin, method, headers: requestedHeaders(headers) }
    : undefined;
  const rule = q ? matchCorsRule(rules, q) : undefined;
  if (!q || !rule) {
    throw new S3Error(
      'AccessForbidden',
      "CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
    );
  }
  return new Response(null, {
    status: 200,
    headers: { ...corsHeaders(rule, q, true), 'content-length': '0' },
  });
}

/**
 * The Access-Control-* headers for an actual request whose Origin and method match a rule. An
 * actual request may name the method it stands for (Access-Control-Request-Method), as RGW
 * honours and the s3-tests suite checks; otherwise its own method is matched.
 */
export function actualCorsHeaders(
  rules: readonly CorsRule[] | undefined,
  headers: RawHeaders,
  method: string,
): Record<string, string> {
  const origin = header(headers, 'origin');
  if (!rules || origin === undefined) return {};
  const named = header(headers, 'access-control-request-method')?.trim().toUpperCase();
  const q: CorsQuery = { origin, method: named || method, headers: [] };
  const rule = matchCorsRule(rules, q);
  return rule ? corsHeaders(rule, q, false) : {};
}
