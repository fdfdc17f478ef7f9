// -ca-bundle FILE (AWS_CA_BUNDLE, as the AWS CLI reads it): the S3 client also trusts the PEM CA
// certificates in FILE, for a gateway whose certificate a private CA signed. Node's own roots stay
// trusted. Read once, when the client is made; an unreadable file is a usage error naming it.
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { UsageError } from './flags.js';

/** S3Client options that add the bundle's CAs (none without a bundle). */
export function trustOptions(caBundle: string | undefined): { requestHandler?: { httpsAgent: Agent } } {
  if (caBundle === undefined || caBundle === '') return {};
  let pem: string;
  try {
    pem = readFileSync(caBundle, 'utf8');
  } catch (e) {
    throw new UsageError(`-ca-bundle ${caBundle}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  return { requestHandler: { httpsAgent: new Agent({ keepAlive: true, ca: [...rootCertificates, pem] }) } };
}
