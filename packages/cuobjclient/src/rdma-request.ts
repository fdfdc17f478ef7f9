// Sends one S3 command through the user's own S3Client with the RDMA request headers, and
// captures the raw response (status + headers) whatever the outcome. Two per-command middlewares,
// so the client is never modified:
//   build, low priority (after the SDK's flexible-checksum middleware, before signing): drop any
//     body checksum the SDK computed over the empty body (it would not match the raw buffer the
//     gateway reads; x-amz-checksum-mode stays, so a declined GET's body is still validated), then add x-amz-rdma-token (signed by SigV4),
//     x-amz-content-sha256: UNSIGNED-PAYLOAD and the caller's checksum over the raw buffer.
//   deserialize, low priority (innermost: sees the raw response first): record status and
//     headers; on a completed RDMA GET drop response checksum headers, which describe the object
//     and not the (empty) HTTP body the SDK would otherwise validate against them.

import type {
  GetObjectCommand,
  GetObjectCommandOutput,
  PutObjectCommand,
  PutObjectCommandOutput,
  S3Client,
  UploadPartCommand,
  UploadPartCommandOutput,
} from '@aws-sdk/client-s3';
import { VgwrdmaError } from '@vgwrdma/errors';
import { REPLY_HEADER, replyMeaning, TOKEN_HEADER } from '@vgwrdma/rdma-protocol';

/** The raw HTTP answer of one request. */
export interface RawAnswer {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
}

interface RdmaRequestHeaders {
  readonly token: string;
  /** A checksum header over the raw buffer, e.g. x-amz-checksum-crc32c. */
  readonly checksum?: { readonly header: string; readonly value: string } | undefined;
}

/** Per-request options of S3Client.send (what the SDK's HttpHandlerOptions has that we use). */
interface SendOptions {
  readonly abortSignal?: AbortSignal;
}

type HeaderBag = Record<string, string>;
const isChecksumRequestHeader = (name: string) => {
  const n = name.toLowerCase();
  return (
    (n.startsWith('x-amz-checksum-') && n !== 'x-amz-checksum-mode') ||
    n === 'x-amz-sdk-checksum-algorithm' ||
    n === 'x-amz-trailer'
  );
};

function headersOf(x: unknown): HeaderBag | undefined {
  const h = (x as { headers?: unknown } | undefined)?.headers;
  return h !== null && typeof h === 'object' ? (h as HeaderBag) : undefined;
}

/** Lower-cased copy of a header bag. */
function lowerCase(h: HeaderBag): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = String(v);
  return out;
}

/**
 * Sends `command` with the RDMA headers. Resolves with the SDK output and the raw answer; rejects
 * with the SDK's error and, when a response arrived, its raw answer in `answer`.
 */
export function sendWithRdma(
  client: S3Client,
  command: PutObjectCommand,
  rdma: RdmaRequestHeaders,
  options?: SendOptions,
): Promise<{ output: PutObjectCommandOutput; answer: RawAnswer }>;
export function sendWithRdma(
  client: S3Client,
  command: GetObjectCommand,
  rdma: RdmaRequestHeaders,
  options?: SendOptions,
): Promise<{ output: GetObjectCommandOutput; answer: RawAnswer }>;
export function sendWithRdma(
  client: S3Client,
  command: UploadPartCommand,
  rdma: RdmaRequestHeaders,
  options?: SendOptions,
): Promise<{ output: UploadPartCommandOutput; answer: RawAnswer }>;
export async function sendWithRdma(
  client: S3Client,
  command: PutObjectCommand | GetObjectCommand | UploadPartCommand,
  rdma: RdmaRequestHeaders,
  options: SendOptions = {},
): Promise<{
  output: PutObjectCommandOutput | GetObjectCommandOutput | UploadPartCommandOutput;
  answer: RawAnswer;
}> {
  let answer: RawAnswer | undefined;
  // Both commands share one stack shape at run time; the generic parameters differ only in types.
  const stack = (command as PutObjectCommand).middlewareStack;
  stack.add(
    (next) => async (args) => {
      const headers = headersOf(args.request);
      if (headers) {
        for (const name of Object.keys(headers)) if (isChecksumRequestHeader(name)) delete headers[name];
        headers[TOKEN_HEADER] = rdma.token;
        headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
        if (rdma.checksum) headers[rdma.checksum.header] = rdma.checksum.value;
      }
      return next(args);
    },
    { step: 'build', priority: 'low', name: 'cuobjclientRdmaRequest' },
  );
  stack.add(
    (next) => async (args) => {
      const result = await next(args);
      const response = result.response as { statusCode?: number; headers?: HeaderBag } | undefined;
      const raw = response?.headers;
      if (raw) {
        answer = { status: response.statusCode ?? 0, headers: lowerCase(raw) };
        if (replyMeaning('get', answer.headers[REPLY_HEADER]) === 'done') {
          for (const name of Object.keys(raw))
            if (name.toLowerCase().startsWith('x-amz-checksum-')) delete raw[name];
        }
      }
      return result;
    },
    { step: 'deserialize', priority: 'low', name: 'cuobjclientRdmaResponse' },
  );
  try {
    const output = await (
      client.send as (
        c: PutObjectCommand | GetObjectCommand | UploadPartCommand,
        o?: SendOptions,
      ) => Promise<PutObjectCommandOutput>
    ).call(client, command, options);
    if (!answer) throw new Error('cuobjclient: the S3 client returned without an HTTP response');
    return { output, answer };
  } catch (err) {
    throw new RdmaRequestError(err, answer);
  }
}

/** The SDK's error plus the raw answer, when one arrived (internal: the session judges it). */
export class RdmaRequestError extends VgwrdmaError<'VGW_ERR_CUOBJ_REQUEST_FAILED'> {
  override readonly name = 'RdmaRequestError';
  constructor(
    override readonly cause: unknown,
    readonly answer: RawAnswer | undefined,
  ) {
    super('VGW_ERR_CUOBJ_REQUEST_FAILED', cause instanceof Error ? cause.message : String(cause), { cause });
  }
}
