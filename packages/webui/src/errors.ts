// What can go wrong talking to the gateway, as values the pages show: an S3 error answer (its
// code, message and status), or no answer at all (network, CORS, gateway down). Expired or
// refused signatures and unreachable gateways offer to sign in again.

export class S3ApiError extends Error {
  override readonly name = 'S3ApiError';
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

const SIGN_IN_AGAIN = new Set([
  'ExpiredToken',
  'RequestTimeTooSkewed',
  'SignatureDoesNotMatch',
  'InvalidAccessKeyId',
  'AccessDeniedExpired',
]);

/** Whether the error means the keys (or the connection) are no good any more. */
export function wantsSignIn(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof S3ApiError && SIGN_IN_AGAIN.has(error.code));
}

export function describe(error: unknown): { title: string; detail: string } {
  if (error instanceof S3ApiError)
    return { title: `${error.code} (HTTP ${error.status})`, detail: error.message };
  if (error instanceof NetworkError)
    return {
      title: 'Network failure',
      detail: `${error.message}. The gateway did not answer (down, unreachable, or blocked).`,
    };
  return { title: 'Error', detail: error instanceof Error ? error.message : String(error) };
}

/** Parses an S3 <Error> document (or a JSON {code, message}); falls back to the status. */
export function errorFromBody(status: number, text: string, statusText = ''): S3ApiError {
  if (text.trim().startsWith('{')) {
    try {
      const v = JSON.parse(text) as { code?: string; message?: string };
      return new S3ApiError(v.code ?? `HTTP${status}`, v.message ?? statusText, status);
    } catch {
      // fall through to XML / status
    }
  }
  const doc = text.trim() === '' ? null : new DOMParser().parseFromString(text, 'application/xml');
  const code = doc?.querySelector('Error > Code')?.textContent;
  const message = doc?.querySelector('Error > Message')?.textContent;
  return new S3ApiError(
    code ?? `HTTP${status}`,
    message ?? (statusText || `the gateway answered ${status}`),
    status,
  );
}
