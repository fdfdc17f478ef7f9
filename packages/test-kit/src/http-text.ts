// httpText: one plain node:http exchange read to the end, for what fetch cannot reach or hides (a
// unix socket, a method or header fetch refuses, a probe that must not reuse a connection): the
// status and the body as text.
import { type IncomingMessage, type RequestOptions, request } from 'node:http';

export interface HttpText {
  readonly status: number;
  readonly body: string;
}

/** Sends `target` (a URL, or full options) with `options` and no request body; reads the answer. */
export function httpText(
  target: string | URL | RequestOptions,
  options: RequestOptions = {},
): Promise<HttpText> {
  return new Promise((resolve, reject) => {
    const answer = (res: IncomingMessage): void => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
    };
    const req =
      typeof target === 'string' || target instanceof URL
        ? request(target, options, answer)
        : request({ ...target, ...options }, answer);
    req.once('error', reject);
    req.end();
  });
}
