// A SigV4-signed admin request (PATCH /<operation>, versitygw's admin API style) to a gateway
// process, signed with the kit's signer (the SDK's own); answers status, headers and body text.
import type { Credentials } from './gateway-process.js';
import { signHeaders } from './sigv4-signer.js';

export async function adminRequest(
  baseUrl: string,
  credentials: Credentials,
  operation: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  const path = `/${operation}`;
  const headers = await signHeaders({ baseUrl, credentials, method: 'PATCH', path });
  const res = await fetch(new URL(path, baseUrl), { method: 'PATCH', headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
