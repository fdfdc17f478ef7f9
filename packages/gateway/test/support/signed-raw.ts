// Raw HTTP requests signed with SigV4 (test-kit's signer, the SDK's own), for exact requests the
// SDK has no command for (admin operations) or would reshape.
import { sha256Hex, signHeaders, splitPathAndQuery } from '@vgwrdma/test-kit';
import { type RawRequest, type RawResponse, raw } from './raw-http.js';

export async function signedRaw(
  baseUrl: string,
  access: string,
  secret: string,
  req: RawRequest,
): Promise<RawResponse> {
  const { path, query } = splitPathAndQuery(req.path);
  const body = req.body ?? '';
  const headers: Record<string, string> = { ...req.headers };
  if (
    req.body !== undefined &&
    headers['content-length'] === undefined &&
    headers['transfer-encoding'] === undefined
  ) {
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const sent = await signHeaders({
    baseUrl,
    credentials: { access, secret },
    method: req.method ?? 'GET',
    path,
    query,
    headers,
    payloadHash: req.headers?.['x-amz-content-sha256'] ?? sha256Hex(body),
  });
  return raw(baseUrl, { ...req, headers: sent });
}
