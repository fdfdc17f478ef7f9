// SigV4 signing for requests the tests write by hand (admin operations, raw sockets, requests the
// SDK would reshape), with the AWS SDK's own signer (@smithy/signature-v4) and S3's settings: the
// path is signed as sent (no second percent-encoding) and the payload hash is the caller's.
import { createHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@vgwrdma/backend-contract';
import type { Credentials } from './gateway-process.js';

/** Hex SHA-256 of a payload (the x-amz-content-sha256 of a signed body). */
export function sha256Hex(body: string | Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

export interface SignInput {
  /** The gateway's base URL (host and port are signed). */
  readonly baseUrl: string;
  readonly credentials: Credentials;
  readonly method: string;
  /** Path as it goes on the wire (already percent-encoded), without the query. */
  readonly path: string;
  /** Decoded query parameters. */
  readonly query?: Readonly<Record<string, string>>;
  /** Headers to sign besides host and x-amz-content-sha256. */
  readonly headers?: Readonly<Record<string, string>>;
  /** x-amz-content-sha256: a hex digest or UNSIGNED-PAYLOAD; the empty body's digest when omitted. */
  readonly payloadHash?: string;
  readonly region?: string;
  /** When the request is signed (X-Amz-Date); now when omitted. Stale or future times test the replay window. */
  readonly signingDate?: Date;
}

function signerFor(input: SignInput): SignatureV4 {
  return new SignatureV4({
    credentials: { accessKeyId: input.credentials.access, secretAccessKey: input.credentials.secret },
    region: input.region ?? 'us-east-1',
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
}

/** The request's headers after signing, names in lower case (host, x-amz-date, authorization …). */
export async function signHeaders(input: SignInput): Promise<Record<string, string>> {
  const url = new URL(input.baseUrl);
  const signed = await signerFor(input).sign(
    {
      method: input.method,
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: input.path,
      query: { ...input.query },
      headers: {
        host: url.host,
        'x-amz-content-sha256': input.payloadHash ?? sha256Hex(''),
        ...input.headers,
      },
    },
    input.signingDate === undefined ? {} : { signingDate: input.signingDate },
  );
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) out[name.toLowerCase()] = String(value);
  return out;
}

/**
 * A presigned URL (SigV4 in the query; UNSIGNED-PAYLOAD, as S3's presigner signs) valid for
 * `expiresIn` seconds from `signingDate`. `headers` are signed; x-amz-* ones travel in the query.
 */
export async function presignUrl(input: SignInput & { readonly expiresIn: number }): Promise<URL> {
  const url = new URL(input.baseUrl);
  const presigned = await signerFor(input).presign(
    {
      method: input.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port),
      path: input.path,
      query: { ...input.query },
      headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', ...input.headers },
    },
    {
      expiresIn: input.expiresIn,
      ...(input.signingDate === undefined ? {} : { signingDate: input.signingDate }),
    },
  );
  const out = new URL(input.path, input.baseUrl);
  for (const [name, value] of Object.entries(presigned.query ?? {}))
    for (const v of Array.isArray(value) ? value : [value]) if (v !== null) out.searchParams.append(name, v);
  return out;
}

/** Splits `/bucket/key?a=1&b` into the signed path and its decoded query. */
export function splitPathAndQuery(pathAndQuery: string): { path: string; query: Record<string, string> } {
  const q = pathAndQuery.indexOf('?');
  if (q === -1) return { path: pathAndQuery, query: {} };
  return {
    path: pathAndQuery.slice(0, q),
    query: Object.fromEntries(new URLSearchParams(pathAndQuery.slice(q + 1))),
  };
}
