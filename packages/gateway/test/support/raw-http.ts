// Raw HTTP requests for cases the SDK will not send (bad names, missing lengths, odd headers):
// node:http with no agent, so every request has its own connection and exact headers.
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as is; with no content-length header, Node frames it with chunked encoding. */
  body?: string | Buffer;
  /** Write only this much of the body and wait for the answer (an early error reply). */
  partialBody?: Buffer;
}

export function raw(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method ?? 'GET',
        path: req.path,
        headers: req.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
          r.destroy();
        });
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    if (req.partialBody) {
      r.write(req.partialBody);
      return;
    }
    r.end(req.body);
  });
}

export function xmlField(body: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1];
}
