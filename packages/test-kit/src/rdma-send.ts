// @aws-sdk/client-s3 commands carrying an RDMA token, as the SDK rule says (the headers are added
// in the build step, so SigV4 signs them), answered with the raw response headers — where
// x-amz-rdma-reply and the byte counts are — and the S3 error a send failed with, headers included.
// Used by the app's end-to-end tests and by cu-backend's in-process gateway test.
import { type S3Client, S3ServiceException } from '@aws-sdk/client-s3';

type Headers = Record<string, string>;
/** Any SDK command: what is used of it is its middleware stack. */
interface Stackable {
  middlewareStack: unknown;
}
type AddToStack = { add: (mw: unknown, opts: { step: 'build'; name: string }) => void };

/** The output fields RDMA tests read (every command's output has a subset of them). */
export interface SdkOutput {
  ETag?: string;
  ChecksumSHA256?: string;
  ContentLength?: number;
  Body?: { transformToByteArray(): Promise<Uint8Array> };
  $metadata: { httpStatusCode?: number };
}

/** Sends `command` with `headers` added before signing; returns its output and raw response headers. */
export async function sendSigned<O = SdkOutput>(
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

/**
 * Sends with `x-amz-rdma-token: token` (or the given token headers) and, as docs/protocol.md
 * asks, `x-amz-content-sha256: UNSIGNED-PAYLOAD`; without a token, as a plain request.
 */
export function sendWithToken<O = SdkOutput>(
  client: S3Client,
  command: Stackable,
  token?: Readonly<Record<string, string>> | string,
) {
  const rdma = typeof token === 'string' ? { 'x-amz-rdma-token': token } : (token ?? {});
  const extra = token === undefined ? {} : { ...rdma, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' };
  return sendSigned<O>(client, command, extra);
}

export interface SentError {
  code: string;
  status: number;
  headers: Headers;
}

/** The S3 error a request failed with: code, HTTP status and raw headers. */
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
