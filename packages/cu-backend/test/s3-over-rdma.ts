// Test helper: @aws-sdk/client-s3 commands carrying an RDMA token, as the SDK rule says — the
// header is added in the build step, so SigV4 signs it — and the raw response headers, which is
// where x-amz-rdma-reply and the byte counts are.
import { S3Client, S3ServiceException } from '@aws-sdk/client-s3';

export function s3(endpoint: string, access: string, secret: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: access, secretAccessKey: secret },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

type Headers = Record<string, string>;
/** Any SDK command: what is used of it is its middleware stack. */
interface Stackable {
  middlewareStack: unknown;
}
type AddToStack = { add: (mw: unknown, opts: { step: 'build'; name: string }) => void };

/** The output fields these tests read (every command's output has a subset of them). */
export interface SdkOutput {
  ETag?: string;
  ChecksumSHA256?: string;
  ContentLength?: number;
  Body?: { transformToByteArray(): Promise<Uint8Array> };
  $metadata: { httpStatusCode?: number };
}

/** Sends `command` (with the token header when given) and returns its output plus raw response headers. */
export async function sendWithToken<O = SdkOutput>(
  client: S3Client,
  command: Stackable,
  token?: Readonly<Record<string, string>> | string,
): Promise<{ output: O; headers: Headers }> {
  let headers: Headers = {};
  // docs/protocol.md: an RDMA request signs UNSIGNED-PAYLOAD (a signed hash would have to match the RDMA bytes).
  const rdma = typeof token === 'string' ? { 'x-amz-rdma-token': token } : (token ?? {});
  const extra = token === undefined ? {} : { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', ...rdma };
  (command.middlewareStack as AddToStack).add(
    (next: (a: { request: { headers: Headers } }) => Promise<{ response: { headers: Headers } }>) =>
      async (args: { request: { headers: Headers } }) => {
        Object.assign(args.request.headers, extra);
        const result = await next(args);
        headers = result.response.headers;
        return result;
      },
    { step: 'build', name: 'rdmaToken' },
  );
  const output = (await client.send(command as never)) as O;
  return { output, headers };
}

/** The S3 error a send failed with: code, HTTP status and raw headers. */
export async function sendError(
  p: Promise<unknown>,
): Promise<{ code: string; status: number; headers: Headers }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof S3ServiceException) {
      const raw = (e.$response as { headers?: Headers } | undefined)?.headers ?? {};
      return { code: e.name, status: e.$metadata.httpStatusCode ?? 0, headers: raw };
    }
    throw e;
  }
  throw new Error('expected the request to fail');
}
