// The security headers of every answer on the console listener: a Content-Security-Policy that
// allows scripts and styles from the console's own origin only (no inline script, no eval), lets
// the page talk to itself and the gateway's S3 / admin endpoints and nothing else, and forbids
// framing, plugins, forms posting elsewhere and base-URL games; plus X-Frame-Options DENY,
// Referrer-Policy no-referrer and nosniff.

/** `connect-src` sources: the gateway's S3 and admin URLs as the console will reach them. */
export function consoleCsp(connectSources: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${connectSources.join(' ')}`.trim(),
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
}
