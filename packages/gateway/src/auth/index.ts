// @vgwrdma/gateway auth: SigV4 and SigV2 verification (Authorization header, presigned URLs) and the
// credential store interface. Body verification for the payload modes lives in ../body.
export { authenticate } from './authenticate.js';
export type { StaticCredentialEntry } from './credentials.js';
export { staticCredentials } from './credentials.js';
export { parseAuthorizationHeader } from './header-auth.js';
export { EMPTY_SHA256 } from './signing.js';
export type {
  AuthInput,
  AuthOptions,
  AuthResult,
  Credential,
  CredentialStore,
  PayloadMode,
  RequestHeaders,
  SigningFacts,
} from './types.js';
export { DEFAULT_MAX_SKEW_MS, MAX_PRESIGN_SECONDS } from './types.js';
