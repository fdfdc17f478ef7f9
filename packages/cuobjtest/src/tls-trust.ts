// -ca-bundle FILE (AWS_CA_BUNDLE, as the AWS CLI reads it): the S3 client also trusts the PEM CA
// certificates in FILE, for a gateway whose certificate a private CA signed. Node's own roots stay
// trusted, and so do the certificates of NODE_EXTRA_CA_CERTS: an agent's `ca` replaces Node's
// default store, which holds both. Read once, when the client is made; an unreadable file is a
// usage error naming it.
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { UsageError } from '@vgwrdma/errors';

function readPem(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${flag} ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

/** NODE_EXTRA_CA_CERTS's certificates; an unreadable file is skipped, as Node itself only warns. */
function extraCas(file: string | undefined): string[] {
  if (file === undefined || file === '') return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return [];
  }
}

/** S3Client options that add the bundle's CAs (none without a bundle). */
export function trustOptions(
  caBundle: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): { requestHandler?: { httpsAgent: Agent } } {
  if (caBundle === undefined || caBundle === '') return {};
  const ca = [...rootCertificates, ...extraCas(env.NODE_EXTRA_CA_CERTS), readPem('-ca-bundle', caBundle)];
  return { requestHandler: { httpsAgent: new Agent({ keepAlive: true, ca }) } };
}
