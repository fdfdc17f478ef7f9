// End-to-end helpers for RDMA: @aws-sdk/client-s3 commands carrying the token (added in the build
// step, so SigV4 signs it) with the raw response headers, errors with their raw headers, and
// streaming MD5 of an object read over plain HTTP.
import { createHash } from 'node:crypto';
import { type S3Client, S3ServiceException } from '@aws-sdk/client-s3';

type Headers = Record<string, string>;
/** Any SDK command: what is used of it is its middleware stack. */
interface Stackable {
  middlewareStack: unknown;
}
type AddToStack = { add: (mw: unknown, opts: { step: 'build'; name: string }) => void };

/** Sends `command` with `headers` added before signing; returns its output and raw response headers. */
export async function sendSigned<O>(
  client: S3Client,
  command: Stackable,
  headers: Readonly<Record<string, string>>,
): Promise<{ output: O; headers: Headers }> {
  let raw: Headers = {};
  (command.middlewareStack as AddToStack).add(
    (next: (a: { request: { headers: Headers } }) => Promise<{ response: { headers: Headers } }>) =>
      async (args: { request: { headers: Headers } }) => {
        Object.assign(args.request.headers, headers);
        const result = await next(args);
        raw = result.response.headers;
        return result;
      },
    { step: 'build', name: 'rdmaToken' },
  );
  const output = (await client.send(command as never)) as O;
  return { output, headers: raw };
}

/** Sends with `x-amz-rdma-token: token` and, as docs/protocol.md asks, `x-amz-content-sha256: UNSIGNED-PAYLOAD`. */
export function sendWithToken<O>(client: S3Client, command: Stackable, token: string) {
  return sendSigned<O>(client, command, {
    'x-amz-rdma-token': token,
    'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
  });
}

export interface SentError {
  code: string;
  status: number;
  headers: Headers;
}

/** The S3 error a request failed with: code, status, raw headers. */
export async function sendError(p: Promise<unknown>): Promise<SentError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof S3ServiceException) {
      const headers = (e.$response as { headers?: Headers } | undefined)?.headers ?? {};
      return { code: e.name, status: e.$metadata.httpStatusCode ?? 0, headers };
    }
    throw e;
  }
  throw new Error('expected the request to fail');
}

/** MD5 (hex) of a response body, streamed. */
export async function md5Of(
  body: AsyncIterable<Uint8Array> | undefined,
): Promise<{ md5: string; size: number }> {
  if (!body) throw new Error('no body');
  const h = createHash('md5');
  let size = 0;
  for await (const chunk of body) {
    h.update(chunk);
    size += chunk.length;
  }
  return { md5: h.digest('hex'), size };
}

export const rdmaHeaders = (h: Headers) => Object.keys(h).filter((k) => k.startsWith('x-amz-rdma'));

/** SDK settings the RDMA client rules ask for (docs/protocol.md "Client rules"). */
export const RDMA_SDK_OPTIONS = {
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
} as const;

export type { S3Client };
