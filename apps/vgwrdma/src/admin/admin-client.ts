// One SigV4-signed admin request (PATCH /<operation>?<query>, versitygw's admin API) sent over
// node:http or node:https. Signing is the AWS SDK's own (@smithy/signature-v4) with S3's settings;
// the body's SHA-256 is signed. --allow-insecure turns certificate checks off for https only.
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@vgwrdma/backend-contract';
import { VgwrdmaError } from '@vgwrdma/errors';
import { trustedCas } from './trusted-cas.js';

export interface AdminConnection {
  readonly endpoint: URL;
  readonly access: string;
  readonly secret: string;
  readonly region: string;
  readonly allowInsecure: boolean;
  /** --ca-bundle: extra CA certificates (PEM) trusted for https. */
  readonly ca?: Buffer;
  /** Give up on a silent gateway after this long. */
  readonly timeoutMs: number;
}

export interface AdminCall {
  readonly operation: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface AdminAnswer {
  readonly status: number;
  readonly text: string;
}

/** The request never got an HTTP answer (refused, reset, DNS, TLS, timeout). */
export class UnreachableError extends VgwrdmaError<'VGW_ERR_ADMIN_UNREACHABLE'> {
  override readonly name = 'UnreachableError';
  constructor(
    readonly endpoint: string,
    readonly reason: string,
    /** Node's error code (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, …); `code` is the catalogue's. */
    readonly nodeCode?: string,
  ) {
    super('VGW_ERR_ADMIN_UNREACHABLE', `cannot reach ${endpoint}: ${reason}`);
  }
}

export async function adminCall(conn: AdminConnection, call: AdminCall): Promise<AdminAnswer> {
  const body = call.body ?? '';
  const base = conn.endpoint.pathname.replace(/\/+$/, '');
  const path = `${base}/${call.operation}`;
  const signer = new SignatureV4({
    credentials: { accessKeyId: conn.access, secretAccessKey: conn.secret },
    region: conn.region,
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const signed = await signer.sign({
    method: 'PATCH',
    protocol: conn.endpoint.protocol,
    hostname: conn.endpoint.hostname,
    ...(conn.endpoint.port === '' ? {} : { port: Number(conn.endpoint.port) }),
    path,
    query: { ...call.query },
    headers: {
      host: conn.endpoint.host,
      'x-amz-content-sha256': createHash('sha256').update(body).digest('hex'),
      'content-length': String(Buffer.byteLength(body)),
      ...(body === '' ? {} : { 'content-type': 'application/xml' }),
    },
  });
  const search = new URLSearchParams(call.query).toString();
  const https = conn.endpoint.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  return new Promise<AdminAnswer>((resolve, reject) => {
    const req = send(
      {
        method: 'PATCH',
        hostname: conn.endpoint.hostname.replace(/^\[|\]$/g, ''),
        port: conn.endpoint.port === '' ? (https ? 443 : 80) : Number(conn.endpoint.port),
        path: search === '' ? path : `${path}?${search}`,
        headers: signed.headers,
        timeout: conn.timeoutMs,
        ...(https && conn.allowInsecure ? { rejectUnauthorized: false } : {}),
        ...(https && conn.ca !== undefined ? { ca: trustedCas(conn.ca) } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (e) => reject(new UnreachableError(conn.endpoint.origin, e.message)));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${conn.timeoutMs} ms`)));
    req.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        new UnreachableError(conn.endpoint.origin, e.code ? `${e.code} (${e.message})` : e.message, e.code),
      ),
    );
    req.end(body);
  });
}
