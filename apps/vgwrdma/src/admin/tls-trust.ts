// TLS trust for `vgwrdma admin`: --ca-bundle FILE (AWS_CA_BUNDLE, as the AWS CLI reads it) adds a
// private CA to the ones Node trusts, and a certificate Node cannot verify is named as such —
// "certificate not trusted" and what to pass — instead of being blamed on an unreachable gateway.
import { readFileSync } from 'node:fs';

/** Node's codes for a certificate chain it cannot verify (or a name it does not cover). */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Whether an error code means the server's certificate was not trusted. */
export function isUntrustedCertificate(code: string | undefined): boolean {
  return code !== undefined && UNTRUSTED.has(code);
}

/** What to tell the user about an untrusted certificate. */
export function untrustedAdvice(code: string): string {
  return (
    `certificate not trusted (${code}): pass --ca-bundle FILE (or set AWS_CA_BUNDLE) with the CA ` +
    'that signed the gateway certificate, or --allow-insecure for a throw-away test setup'
  );
}

/** The PEM bundle at `file`, read once at start; a missing file is the user's error. */
export function readCaBundle(file: string): Buffer {
  return readFileSync(file);
}
