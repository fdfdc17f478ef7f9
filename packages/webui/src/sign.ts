// SigV4 in the browser: the AWS SDK's own signer (@smithy/signature-v4) with the browser SHA-256
// (@aws-crypto/sha256-browser: WebCrypto where the page is a secure context, a JS fallback
// elsewhere). S3's rules: the path is signed as sent (already URI-encoded, not encoded again).
import { Sha256 } from '@aws-crypto/sha256-browser';
import { SignatureV4 } from '@smithy/signature-v4';
import { config } from './config.js';
import { session } from './session.js';

export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

export interface RequestSpec {
  readonly method: string;
  /** Base URL of the endpoint (scheme://host:port). */
  readonly base: string;
  /** Already URI-encoded path, starting with '/'. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Hex SHA-256 of the body, or UNSIGNED-PAYLOAD. */
  readonly payloadHash: string;
}

/** AWS's URI encoding: everything but A-Z a-z 0-9 - _ . ~ percent-encoded. */
export function awsEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A key as a path: each segment encoded, '/' kept. */
export function encodeKey(key: string): string {
  return key.split('/').map(awsEncode).join('/');
}

export function queryString(query: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(query ?? {});
  if (entries.length === 0) return '';
  return `?${entries.map(([k, v]) => (v === '' ? awsEncode(k) : `${awsEncode(k)}=${awsEncode(v)}`)).join('&')}`;
}

export async function sha256Hex(body: string | Uint8Array): Promise<string> {
  const h = new Sha256();
  h.update(body);
  const digest = await h.digest();
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function signer(): SignatureV4 {
  const s = session();
  if (s === undefined) throw new Error('not signed in');
  return new SignatureV4({
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    region: config().region,
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
}

function httpRequest(spec: RequestSpec) {
  const url = new URL(spec.base);
  return {
    method: spec.method,
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port === '' ? {} : { port: Number(url.port) }),
    path: spec.path,
    query: { ...spec.query },
    headers: { ...spec.headers, host: url.host, 'x-amz-content-sha256': spec.payloadHash },
  };
}

/** The headers to send (host left out: the browser sets it). */
export async function signedHeaders(spec: RequestSpec): Promise<Record<string, string>> {
  const signed = await signer().sign(httpRequest(spec));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(signed.headers)) if (k.toLowerCase() !== 'host') out[k] = String(v);
  return out;
}

/**
 * A presigned URL valid for `expiresIn` seconds. As S3 presigners do, the payload is
 * UNSIGNED-PAYLOAD and that claim is neither hoisted into the query nor signed as a header.
 */
export async function presignedUrl(
  spec: Omit<RequestSpec, 'payloadHash'>,
  expiresIn: number,
): Promise<string> {
  const req = httpRequest({ ...spec, payloadHash: UNSIGNED_PAYLOAD });
  const claim = new Set(['x-amz-content-sha256']);
  const signed = await signer().presign(req, {
    expiresIn,
    unhoistableHeaders: claim,
    unsignableHeaders: claim,
  });
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(signed.query ?? {})) if (typeof v === 'string') query[k] = v;
  return `${spec.base}${spec.path}${queryString(query)}`;
}
