// Raw HTTP requests signed with SigV4 (the SDK's own signer), for exact requests the SDK has no
// command for (admin operations) or would reshape.
import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { type RawRequest, type RawResponse, raw } from './raw-http.js';

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

export async function signedRaw(
  baseUrl: string,
  access: string,
  secret: string,
  req: RawRequest,
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const signer = new SignatureV4({
    credentials: { accessKeyId: access, secretAccessKey: secret },
    region: 'us-east-1',
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const q = req.path.indexOf('?');
  const path = q === -1 ? req.path : req.path.slice(0, q);
  const query: Record<string, string> = {};
  if (q !== -1) for (const [k, v] of new URLSearchParams(req.path.slice(q + 1))) query[k] = v;
  const body = req.body ?? '';
  const headers: Record<string, string> = {
    host: url.host,
    'x-amz-content-sha256': createHash('sha256').update(body).digest('hex'),
    ...req.headers,
  };
  if (
    req.body !== undefined &&
    headers['content-length'] === undefined &&
    headers['transfer-encoding'] === undefined
  ) {
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const signed = await signer.sign({
    method: req.method ?? 'GET',
    protocol: 'http:',
    hostname: url.hostname,
    port: Number(url.port),
    path,
    query,
    headers,
  });
  const sent: Record<string, string> = {};
  for (const [k, v] of Object.entries(signed.headers)) sent[k.toLowerCase()] = String(v);
  return raw(baseUrl, { ...req, headers: sent });
}
