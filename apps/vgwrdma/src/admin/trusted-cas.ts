// The CA list of an https request made with --ca-bundle: Node's own roots, the certificates of
// NODE_EXTRA_CA_CERTS (a request's `ca` replaces Node's default store, which holds both), and the
// bundle's. An unreadable NODE_EXTRA_CA_CERTS file is skipped, as Node itself only warns about it.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

export function trustedCas(
  bundle: Buffer,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const extraFile = env.NODE_EXTRA_CA_CERTS;
  let extra: string[] = [];
  if (extraFile !== undefined && extraFile !== '') {
    try {
      extra = [readFileSync(extraFile, 'utf8')];
    } catch {
      extra = [];
    }
  }
  return [...rootCertificates, ...extra, bundle.toString('utf8')];
}
