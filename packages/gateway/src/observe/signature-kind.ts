// How an authenticated request was signed, in the words of AWS's server access log: signature
// version SigV2 / SigV4 and authentication type AuthHeader (Authorization header) / QueryString
// (presigned URL). Translated from the signing facts authentication established: an anonymous
// request, one refused before authentication finished, and a POST form (signed inside its body,
// a type the log format has no word for) have neither.
import type { AuthResult, SigningFacts } from '../auth/index.js';

export interface SignatureKind {
  readonly signatureVersion: 'SigV2' | 'SigV4';
  readonly authType: 'AuthHeader' | 'QueryString';
}

const VERSION: Readonly<Record<SigningFacts['version'], SignatureKind['signatureVersion']>> = {
  AWS: 'SigV2',
  'AWS4-HMAC-SHA256': 'SigV4',
};

const AUTH_TYPE: Readonly<Record<SigningFacts['authType'], SignatureKind['authType'] | undefined>> = {
  'REST-HEADER': 'AuthHeader',
  'REST-QUERY-STRING': 'QueryString',
  POST: undefined,
};

export function signatureKind(auth: AuthResult | undefined): SignatureKind | undefined {
  const signing = auth?.anonymous === false ? auth.signing : undefined;
  const authType = signing === undefined ? undefined : AUTH_TYPE[signing.authType];
  if (signing === undefined || authType === undefined) return undefined;
  return { signatureVersion: VERSION[signing.version], authType };
}
