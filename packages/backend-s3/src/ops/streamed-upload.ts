// One streamed upload upstream (PutObject, UploadPart): the client's body goes through the upload
// guard straight into the SDK request, under an abort signal that fires when the guard fails, so
// a short, corrupt or broken body tears the upstream request down and nothing is stored. The
// request is sent with the exact Content-Length (the gateway always knows it: the header, or the
// decoded length of an aws-chunked body), never buffered, and never retried.
import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { ChecksumAlgorithm as SdkChecksumAlgorithm } from '@aws-sdk/client-s3';
import { type ChecksumRequest, type RequestContext, S3Error } from '@vgwrdma/s3-backend';
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
   * The algorithm the SDK computes and sends as an aws-chunked trailer, which the upstream
   * verifies and stores: the one the client asked for (none with disableChecksum).
   */
  checksumFields: { ChecksumAlgorithm?: SdkChecksumAlgorithm };
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
    checksumFields:
      input.checksum && up.options.disableChecksum !== true
        ? { ChecksumAlgorithm: input.checksum.algorithm }
        : {},
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

/**
 * Reads a body that must be empty to its end (running the guard's checks), then hands on a fresh
 * empty one. A failed check never ends the guard; it aborts `signal`, which ends the wait.
 */
async function emptyBody(guard: Readable, signal: AbortSignal): Promise<Readable> {
  guard.resume();
  await once(guard, 'end', { signal });
  return Readable.from([]);
}
