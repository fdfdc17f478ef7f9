// Test support (the gateway's own tests; it was src/auth/test-support, published source importing
// the private test kit): a loopback HTTP server that runs authenticate() and decodeBody() on every
// request exactly as the gateway will (raw path and query from the request line, Node's headers),
// records the outcome, and answers S3-style so real SDK clients see real error codes.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isS3Error, S3Error } from '@vgwrdma/backend-contract';
import { authenticate } from '../../src/auth/authenticate.js';
import type { AuthOptions, AuthResult, CredentialStore } from '../../src/auth/types.js';
import { decodeBody } from '../../src/body/index.js';

interface AuthRecord {
  method: string;
  rawPath: string;
  rawQuery: string;
  headers: IncomingMessage['headers'];
  result?: AuthResult;
  error?: S3Error;
  body?: Buffer;
  trailers?: Record<string, string | undefined>;
}

export interface AuthServer {
  endpoint: string;
  records: AuthRecord[];
  close(): Promise<void>;
}

export function splitUrl(url: string): { rawPath: string; rawQuery: string } {
  const q = url.indexOf('?');
  return q < 0 ? { rawPath: url, rawQuery: '' } : { rawPath: url.slice(0, q), rawQuery: url.slice(q + 1) };
}

const TRAILER_NAMES = ['x-amz-checksum-crc32', 'x-amz-checksum-crc32c', 'x-amz-checksum-sha256'];

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  store: CredentialStore,
  opts: AuthOptions,
  records: AuthRecord[],
) {
  const { rawPath, rawQuery } = splitUrl(req.url ?? '/');
  const record: AuthRecord = { method: req.method ?? 'GET', rawPath, rawQuery, headers: req.headers };
  records.push(record);
  try {
    record.result = await authenticate(
      { method: record.method, rawPath, rawQuery, headers: req.headers },
      store,
      opts,
    );
    const decoded = decodeBody(req, req.headers, record.result.payload);
    const parts: Buffer[] = [];
    for await (const part of decoded.stream) parts.push(part as Buffer);
    record.body = Buffer.concat(parts);
    record.trailers = Object.fromEntries(TRAILER_NAMES.map((n) => [n, decoded.trailer(n)]));
    res.writeHead(200, { 'content-length': '0', etag: '"0"' }).end();
  } catch (err) {
    const error = isS3Error(err) ? err : new S3Error('InternalError', undefined, { cause: err });
    record.error = error;
    const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${error.code}</Code><Message>${error.message}</Message></Error>`;
    res.writeHead(error.status, {
      'content-type': 'application/xml',
      'content-length': Buffer.byteLength(xml),
      connection: 'close',
    });
    res.end(xml);
  }
}

export async function startAuthServer(store: CredentialStore, opts: AuthOptions): Promise<AuthServer> {
  const records: AuthRecord[] = [];
  const server: Server = createServer((req, res) => void handle(req, res, store, opts, records));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    records,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
