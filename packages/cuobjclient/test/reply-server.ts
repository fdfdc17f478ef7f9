// A small real HTTP server that answers each request with whatever the test scripts (status,
// headers, body), and records what arrived (method, path, headers, body bytes). The SDK tests
// talk to it with a real S3Client, so they check the bytes on the wire without a gateway.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: Uint8Array | string;
  /** Hold the answer until this resolves (concurrency tests). */
  readonly wait?: Promise<void>;
}

export type Responder = (req: Recorded, index: number) => Answer;

/** An S3 error document with `code`. */
export function s3ErrorXml(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>req-1</RequestId></Error>`;
}

export class ReplyServer {
  readonly requests: Recorded[] = [];
  respond: Responder = () => ({ status: 200 });

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ReplyServer> {
    const rs: ReplyServer = new ReplyServer(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const rec: Recorded = {
            method: req.method ?? '',
            path: req.url ?? '',
            headers: req.headers,
            body: Buffer.concat(chunks),
          };
          rs.requests.push(rec);
          const a = rs.respond(rec, rs.requests.length - 1);
          const send = () => {
            const body = a.body === undefined ? Buffer.alloc(0) : Buffer.from(a.body);
            res.writeHead(a.status, {
              'x-amz-request-id': 'req-1',
              ...a.headers,
              'content-length': String(body.length),
            });
            res.end(body);
          };
          if (a.wait) a.wait.then(send, send);
          else send();
        });
      }),
    );
    await new Promise<void>((r) => rs.server.listen(0, '127.0.0.1', r));
    return rs;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A path-style client; by default with the SDK's default checksum settings (WHEN_SUPPORTED). */
  client(extra: Partial<S3ClientConfig> = {}): S3Client {
    return new S3Client({
      endpoint: this.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
      maxAttempts: 1,
      ...extra,
    });
  }

  reset(respond: Responder): void {
    this.requests.length = 0;
    this.respond = respond;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** The SignedHeaders list of a SigV4 Authorization header. */
export function signedHeaders(headers: IncomingHttpHeaders): string[] {
  const m = /SignedHeaders=([^,]+)/.exec(String(headers.authorization ?? ''));
  return m?.[1]?.split(';') ?? [];
}
