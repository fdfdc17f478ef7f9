// An admin operation (PATCH /<name>, versitygw's admin API style) signed with the SDK's own SigV4
// signer, answered as a fetch Response.
import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

/** The signer's hash constructor over node:crypto (an HMAC when given a secret). */
class Sha256 {
  private readonly h;
  constructor(secret?: unknown) {
    this.h = secret === undefined ? createHash('sha256') : createHmac('sha256', secret as Uint8Array);
  }
  update(data: Uint8Array | string): void {
    this.h.update(data);
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.h.digest()));
  }
}

export async function signedPatch(
  baseUrl: string,
  access: string,
  secret: string,
  path: string,
): Promise<Response> {
  const url = new URL(baseUrl);
  const signer = new SignatureV4({
    credentials: { accessKeyId: access, secretAccessKey: secret },
    region: 'us-east-1',
    service: 's3',
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: 'PATCH',
    protocol: 'http:',
    hostname: url.hostname,
    port: Number(url.port),
    path,
    query: {},
    headers: { host: url.host, 'x-amz-content-sha256': createHash('sha256').update('').digest('hex') },
  });
  return fetch(new URL(path, baseUrl), {
    method: 'PATCH',
    headers: signed.headers as Record<string, string>,
  });
}
