// Test support: signs a request with the real @smithy/signature-v4 (the signer inside the AWS
// SDK, S3 settings: no path double-encoding) and returns it as the AuthInput the gateway sees.
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@vgwrdma/test-kit';
import type { AuthInput } from '../../src/auth/types.js';

export const TEST_ACCESS = 'AKIDSIGNER';
export const TEST_SECRET = 'signer-secret/with+odd=chars';

interface SignOptions {
  method?: string;
  /** The path as it goes on the wire (already percent-encoded). */
  path: string;
  /** Decoded query parameters. */
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** x-amz-content-sha256 to send and sign; null sends none. */
  payloadHash?: string | null;
  region?: string;
  service?: string;
  access?: string;
  secret?: string;
  date?: Date;
}

/** encodeURIComponent plus the characters RFC 3986 reserves that it leaves alone. */
export function strictEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function rawQueryOf(query: Record<string, string>): string {
  return Object.entries(query)
    .map(([k, v]) => `${strictEncode(k)}=${strictEncode(v)}`)
    .join('&');
}

export const SIGNING_DATE = new Date('2026-11-29T08:00:00Z');

export async function signRequest(o: SignOptions): Promise<AuthInput> {
  const signer = new SignatureV4({
    credentials: { accessKeyId: o.access ?? TEST_ACCESS, secretAccessKey: o.secret ?? TEST_SECRET },
    region: o.region ?? 'us-east-1',
    service: o.service ?? 's3',
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const headers: Record<string, string> = { host: '127.0.0.1:7070', ...o.headers };
  const payloadHash = o.payloadHash === undefined ? 'UNSIGNED-PAYLOAD' : o.payloadHash;
  if (payloadHash !== null) headers['x-amz-content-sha256'] = payloadHash;
  const signed = await signer.sign(
    {
      method: o.method ?? 'GET',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 7070,
      path: o.path,
      query: o.query ?? {},
      headers,
    },
    { signingDate: o.date ?? SIGNING_DATE },
  );
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(signed.headers)) lower[k.toLowerCase()] = String(v);
  return {
    method: o.method ?? 'GET',
    rawPath: o.path,
    rawQuery: rawQueryOf(o.query ?? {}),
    headers: lower,
    now: o.date ?? SIGNING_DATE,
  };
}
