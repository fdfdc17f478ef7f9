// How an authenticated request was signed, in the words of AWS's server access log: signature
// version SigV2 / SigV4 and authentication type AuthHeader (Authorization header) / QueryString
// (presigned URL). Read from what authentication accepted: an anonymous request, one refused
// before authentication finished, and a POST form (signed inside its body) have neither.
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthResult } from '../auth/index.js';
import { headerValue } from '../auth/request-headers.js';
import { isV2Authorization } from '../auth/sigv2-header-auth.js';

export interface SignatureKind {
  readonly signatureVersion: 'SigV2' | 'SigV4';
  readonly authType: 'AuthHeader' | 'QueryString';
}

/** The query parameters that make a presigned request SigV4 (as authenticate() decides). */
const V4_QUERY = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Signature'];

export function signatureKind(
  auth: AuthResult | undefined,
  headers: IncomingHttpHeaders,
  url: string,
): SignatureKind | undefined {
  if (auth === undefined || auth.anonymous) return undefined;
  const authorization = headerValue(headers, 'authorization');
  if (authorization !== undefined && authorization.trim() !== '')
    return { signatureVersion: isV2Authorization(authorization) ? 'SigV2' : 'SigV4', authType: 'AuthHeader' };
  if (!auth.presigned) return undefined;
  const q = url.indexOf('?');
  const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  return {
    signatureVersion: V4_QUERY.some((n) => query.has(n)) ? 'SigV4' : 'SigV2',
    authType: 'QueryString',
  };
}
