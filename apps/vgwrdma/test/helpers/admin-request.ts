// A SigV4-signed admin request (PATCH /<operation>, versitygw's admin API style) to a gateway
// process, signed with the SDK's own signer; answers status and body text.
import { createHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from './sha256.js';

export interface Credentials {
  readonly access: string;
  readonly secret: string;
}

export async function adminRequest(
  baseUrl: string,
  credentials: Credentials,
  operation: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(baseUrl);
  const signer = new SignatureV4({
    credentials: { accessKeyId: credentials.access, secretAccessKey: credentials.secret },
    region: 'us-east-1',
    service: 's3',
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: 'PATCH',
    protocol: 'http:',
    hostname: url.hostname,
    port: Number(url.port),
    path: `/${operation}`,
    query: {},
    headers: { host: url.host, 'x-amz-content-sha256': createHash('sha256').update('').digest('hex') },
  });
  const res = await fetch(new URL(`/${operation}`, baseUrl), {
    method: 'PATCH',
    headers: signed.headers as Record<string, string>,
  });
  return { status: res.status, text: await res.text() };
}
