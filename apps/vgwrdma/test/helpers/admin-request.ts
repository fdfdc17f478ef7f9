// A SigV4-signed admin request (PATCH /<operation>, versitygw's admin API style) to a gateway
// process, signed with test-kit's signer (the SDK's own); answers status and body text.
import { type Credentials, signHeaders } from '@vgwrdma/test-kit';

export async function adminRequest(
  baseUrl: string,
  credentials: Credentials,
  operation: string,
): Promise<{ status: number; text: string }> {
  const path = `/${operation}`;
  const headers = await signHeaders({ baseUrl, credentials, method: 'PATCH', path });
  const res = await fetch(new URL(path, baseUrl), { method: 'PATCH', headers });
  return { status: res.status, text: await res.text() };
}
