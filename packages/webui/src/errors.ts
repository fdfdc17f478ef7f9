// What can go wrong talking to the gateway, as values the pages show: an S3 error answer (its
// code, message and status), or no answer at all (network, CORS, gateway down). Expired or
// refused signatures and unreachable gateways offer to sign in again. Both are members of the
// project's error catalogue (@vgwrdma/errors, docs/errors.md): `code` is the VGW_ERR_* code, the
// S3 answer's own code is `s3Code`.
import { VgwrdmaError } from '@vgwrdma/errors';

export class S3ApiError extends VgwrdmaError<'VGW_ERR_WEBUI_S3_ERROR'> {
  override readonly name = 'S3ApiError';
  constructor(
    /** The S3 error code of the answer (`NoSuchKey`, `AccessDenied`, `HTTP500` without a body). */
    readonly s3Code: string,
    message: string,
    readonly status: number,
  ) {
    super('VGW_ERR_WEBUI_S3_ERROR', message);
  }
}

export class NetworkError extends VgwrdmaError<'VGW_ERR_WEBUI_NETWORK'> {
  override readonly name = 'NetworkError';
  constructor(message: string) {
    super('VGW_ERR_WEBUI_NETWORK', message);
  }
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
  return error instanceof NetworkError || (error instanceof S3ApiError && SIGN_IN_AGAIN.has(error.s3Code));
}

export function describe(error: unknown): { title: string; detail: string } {
  if (error instanceof S3ApiError)
    return { title: `${error.s3Code} (HTTP ${error.status})`, detail: error.message };
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
