// httpText: one plain node:http exchange read to the end, for what fetch cannot reach (a unix
// socket, a method or header fetch refuses): the status and the body as text.
import { type RequestOptions, request } from 'node:http';

export interface HttpText {
  readonly status: number;
  readonly body: string;
}

/** Sends `options` (no request body) and resolves with the answer's status and its body (UTF-8). */
export function httpText(options: RequestOptions): Promise<HttpText> {
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}
