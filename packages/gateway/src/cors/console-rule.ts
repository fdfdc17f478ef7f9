// The web console's CORS rule (the app's --webui): the console is served from an origin of its
// own and calls the S3 and admin APIs from the browser, so the gateway answers that origin — and
// only that origin — whatever the bucket's own CORS configuration says. It comes before the
// bucket's rules (or the --cors-allow-origin fallback), so a bucket's configuration can neither
// lock the console out nor widen what other origins get.
import type { CorsRule } from './cors-config.js';
import { matchCorsRule } from './cors-match.js';

/** Everything the console sends: S3 verbs plus PATCH (the admin API). */
const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'PATCH'] as const;

/**
 * The console reads ETag, version ids, object metadata (x-amz-meta-*) and the content headers;
 * '*' exposes every header to a request without credentials (the console sends no cookies), the
 * named ones cover browsers that take '*' literally.
 */
const EXPOSED = [
  '*',
  'ETag',
  'Content-Length',
  'Content-Type',
  'Last-Modified',
  'x-amz-request-id',
  'x-amz-version-id',
  'x-amz-delete-marker',
] as const;

/** The rule for the console's exact origins (no wildcards: an origin is matched literally). */
export function consoleCorsRule(origins: readonly string[]): CorsRule {
  return {
    allowedOrigins: origins.map((o) => o.replace(/[*?]/g, '')),
    allowedMethods: METHODS,
    allowedHeaders: ['*'],
    exposeHeaders: EXPOSED,
    maxAgeSeconds: 600,
  };
}

/** The rules a request is matched against: the console's first, then the bucket's (or fallback). */
export function withConsoleRule(
  rules: readonly CorsRule[] | undefined,
  consoleRule: CorsRule | undefined,
): readonly CorsRule[] | undefined {
  if (consoleRule === undefined) return rules;
  return [consoleRule, ...(rules ?? [])];
}

/**
 * Whether a request comes from the console's origin: its preflights are answered without looking
 * at any bucket, and every answer to it — refusals before authentication included — carries the
 * CORS headers, so the console can read the gateway's error code.
 */
export function isConsoleOrigin(consoleRule: CorsRule | undefined, origin: string | undefined): boolean {
  if (consoleRule === undefined || origin === undefined) return false;
  return matchCorsRule([consoleRule], { origin, method: 'GET', headers: [] }) !== undefined;
}
