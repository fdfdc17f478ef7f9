// One streamed upload upstream (PutObject, UploadPart) of a known length (the header, or the
// decoded length of an aws-chunked body; bodies of unknown length are spooled: ./spooled-put.ts):
// the client's body goes through the upload guard straight into the SDK request, under an abort
// signal that fires when the guard fails, so a short, corrupt or broken body tears the upstream
// request down and nothing is stored. Sent with the exact Content-Length, never buffered, never
// retried. A checksum value the client sent as a header goes upstream as that header; one that
// arrives in a trailer goes upstream as an aws-chunked trailer the SDK computes.
import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { ChecksumAlgorithm as SdkChecksumAlgorithm } from '@aws-sdk/client-s3';
import { type ChecksumRequest, type RequestContext, S3Error } from '@vgwrdma/backend-contract';
import { checksumFields } from '../convert.js';
import { guardUpload } from '../upload-body.js';
import type { SendOptions, Upstream } from '../upstream.js';
import { type ErrorScope, fromUpstream } from '../upstream-error.js';

interface StreamedInput {
  body: Readable;
  contentLength?: number;
  contentMD5?: string;
  checksum?: ChecksumRequest;
}

interface StreamSpec {
  contentLength: number;
  /**
   * The client's checksum for the upstream to verify and store (none with disableChecksum): its
   * value as a header when the client sent one up front, else the algorithm, which the SDK
   * computes and sends as an aws-chunked trailer.
   */
  checksumFields: { ChecksumAlgorithm?: SdkChecksumAlgorithm } & ReturnType<typeof checksumFields>;
}

interface StreamedResult<T> {
  result: T;
  /** Bytes sent. */
  size: number;
  /** The requested checksum, computed here over the bytes sent. */
  computed: string | undefined;
}

export async function streamedUpload<T>(
  up: Upstream,
  ctx: RequestContext,
  input: StreamedInput,
  scope: ErrorScope,
  send: (body: Readable, spec: StreamSpec, options: SendOptions) => Promise<T>,
): Promise<StreamedResult<T>> {
  if (input.contentLength === undefined) throw new S3Error('MissingContentLength');
  const spec: StreamSpec = {
    contentLength: input.contentLength,
    checksumFields: upstreamChecksum(up, input),
  };
  const local = new AbortController();
  let failure: unknown;
  const guard = guardUpload(
    input.body,
    {
      contentLength: input.contentLength,
      ...(input.contentMD5 === undefined ? {} : { contentMD5: input.contentMD5 }),
      ...(input.checksum === undefined ? {} : { checksum: input.checksum }),
    },
    (err) => {
      failure ??= err;
      local.abort(err);
    },
  );
  const abortSignal = AbortSignal.any([ctx.signal, local.signal]);
  const failed = () =>
    failure instanceof S3Error
      ? failure
      : new S3Error('IncompleteBody', 'The request body terminated unexpectedly', { cause: failure });
  try {
    // An empty body is complete upstream as soon as the headers arrive: check it first.
    const body = input.contentLength === 0 ? await emptyBody(guard, abortSignal) : guard;
    const result = await send(body, spec, { abortSignal });
    return { result, size: guard.size, computed: guard.computed };
  } catch (err) {
    if (failure !== undefined) throw failed();
    // The upstream refused before reading it all: stop feeding it, leave the client's body alone.
    input.body.unpipe(guard);
    guard.destroy();
    throw fromUpstream(err, scope);
  }
}

function upstreamChecksum(up: Upstream, input: StreamedInput): StreamSpec['checksumFields'] {
  const request = input.checksum;
  if (!request || up.options.disableChecksum === true) return {};
  // A header value is known before the body: sent as a header, upstreams need no trailer support.
  if (request.upfront !== undefined) return checksumFields({ [request.algorithm]: request.upfront });
  return { ChecksumAlgorithm: request.algorithm };
}

/**
 * Reads a body that must be empty to its end (running the guard's checks), then hands on a fresh
 * empty one. A failed check never ends the guard; it aborts `signal`, which ends the wait.
 */
async function emptyBody(guard: Readable, signal: AbortSignal): Promise<Readable> {
  guard.resume();
  await once(guard, 'end', { signal });
  return Readable.from([]);
}
