// corsPreflight: the OPTIONS request a browser sends before a cross-origin call, as fetch sends
// it (no signature: a preflight never carries one), for the tests of the gateway's CORS answers.

/**
 * `OPTIONS url` from `origin` asking for `method` (and, when given, the request `headers`, as
 * Access-Control-Request-Headers' comma-separated value). Answers the response as fetch gives it.
 */
export function corsPreflight(
  url: string,
  origin: string,
  method = 'GET',
  headers?: string,
): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      ...(headers === undefined ? {} : { 'access-control-request-headers': headers }),
    },
  });
}
