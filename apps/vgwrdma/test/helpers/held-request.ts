// A request (SigV4-signed, or anonymous) written by hand on a raw TCP socket, whose body the test sends a piece at
// a time (or never finishes): how a slow or hostile client holds a request, a temp file and a
// connection open. The request asks for `Connection: close`, so `closed` resolves with everything
// the gateway sent once the gateway has closed the connection (the client never ends its side).
import { connect, type Socket } from 'node:net';
import { signHeaders } from '@vgwrdma/test-kit';

export interface HeldRequest {
  /** Writes part of the body. */
  send(bytes: Buffer | string): void;
  /** Resolves when the gateway closes the connection, with all it sent (status line included). */
  readonly closed: Promise<string>;
  /** Closes the socket from our side (cleanup). */
  destroy(): void;
}

export interface HeldRequestOptions {
  readonly method: string;
  /** Path and query, e.g. `/bucket/key?partNumber=1&uploadId=...` (query values unencoded-safe). */
  readonly path: string;
  /** Content-Length announced; the body is sent with send(). */
  readonly contentLength: number;
  /** Signs the request (UNSIGNED-PAYLOAD) when given; without, the request is anonymous. */
  readonly credentials?: { readonly access: string; readonly secret: string };
  /** Further headers, not signed (e.g. a form's Content-Type). */
  readonly headers?: Readonly<Record<string, string>>;
}

async function signedHeaders(
  url: URL,
  target: URL,
  opts: HeldRequestOptions,
): Promise<Record<string, string>> {
  if (opts.credentials === undefined) return { host: url.host };
  return signHeaders({
    baseUrl: url.href,
    credentials: opts.credentials,
    method: opts.method,
    path: target.pathname,
    query: Object.fromEntries(target.searchParams),
    payloadHash: 'UNSIGNED-PAYLOAD',
  });
}

export async function openHeldRequest(baseUrl: string, opts: HeldRequestOptions): Promise<HeldRequest> {
  const url = new URL(baseUrl);
  const target = new URL(opts.path, baseUrl);
  const headers = {
    ...(await signedHeaders(url, target, opts)),
    ...opts.headers,
    'content-length': String(opts.contentLength),
    connection: 'close',
  };
  const head = [
    `${opts.method} ${target.pathname}${target.search} HTTP/1.1`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
  const socket: Socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = new Promise<string>((resolve) => {
    socket.on('error', () => {}); // a reset still ends in 'close'
    socket.once('close', () => resolve(received));
  });
  socket.write(head);
  return {
    send: (bytes) => socket.write(bytes),
    closed,
    destroy: () => socket.destroy(),
  };
}

/** The status code of a raw HTTP response text (0 when there is none). */
export function statusOf(response: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
}
