// versitygw's --cors-allow-origin: a gateway-wide CORS rule used for a bucket that has no CORS
// configuration of its own (and for service-level requests), so browsers can reach buckets that
// were never configured. A bucket's own configuration always replaces it; the rule allows the
// S3 methods and any request header, and exposes the headers an S3 browser client reads.
import type { CorsRule } from './cors-config.js';

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'] as const;
const EXPOSED = [
  'ETag',
  'x-amz-request-id',
  'x-amz-version-id',
  'x-amz-delete-marker',
  'Content-Length',
] as const;

/** The rule for `origin` (an origin such as https://app.example.com, or `*`). */
export function defaultCorsRule(origin: string): CorsRule {
  return { allowedOrigins: [origin], allowedMethods: METHODS, allowedHeaders: ['*'], exposeHeaders: EXPOSED };
}

/** The bucket's rules when it has any, else the default rule (when one is configured). */
export function effectiveCorsRules(
  bucketRules: readonly CorsRule[] | undefined,
  fallback: CorsRule | undefined,
): readonly CorsRule[] | undefined {
  if (bucketRules && bucketRules.length > 0) return bucketRules;
  return fallback ? [fallback] : bucketRules;
}
