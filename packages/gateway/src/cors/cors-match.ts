// Finds the CORS rule that allows a request, S3's way: the first rule whose AllowedOrigin
// (with '*' wildcards) matches the Origin, whose AllowedMethod lists the method and, for a
// preflight, whose AllowedHeader patterns cover every requested header.
import { wildcardMatch } from '../authz/policy/wildcard.js';
import type { CorsRule } from './cors-config.js';

export interface CorsQuery {
  readonly origin: string;
  /** Upper-case method (the actual one, or Access-Control-Request-Method). */
  readonly method: string;
  /** Lower-case requested headers (preflight only). */
  readonly headers: readonly string[];
}

function ruleAllows(rule: CorsRule, q: CorsQuery): boolean {
  return (
    rule.allowedOrigins.some((o) => wildcardMatch(o, q.origin)) &&
    rule.allowedMethods.includes(q.method) &&
    q.headers.every((h) => rule.allowedHeaders.some((p) => wildcardMatch(p, h, true)))
  );
}

export function matchCorsRule(rules: readonly CorsRule[], q: CorsQuery): CorsRule | undefined {
  return rules.find((r) => ruleAllows(r, q));
}

/** The Access-Control-* headers for an allowed request. */
export function corsHeaders(rule: CorsRule, q: CorsQuery, preflight: boolean): Record<string, string> {
  const anyOrigin = rule.allowedOrigins.includes('*');
  const out: Record<string, string> = {
    'access-control-allow-origin': anyOrigin ? '*' : q.origin,
    'access-control-allow-methods': rule.allowedMethods.join(', '),
    vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  };
  if (!anyOrigin) out['access-control-allow-credentials'] = 'true';
  if (rule.exposeHeaders.length > 0) out['access-control-expose-headers'] = rule.exposeHeaders.join(', ');
  if (preflight) {
    if (q.headers.length > 0) out['access-control-allow-headers'] = q.headers.join(', ');
    if (rule.maxAgeSeconds !== undefined) out['access-control-max-age'] = String(rule.maxAgeSeconds);
  }
  return out;
}
