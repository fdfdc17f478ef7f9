// decodeBody: turns the incoming request into the payload bytes the handler stores, choosing the
// decoder from the payload mode SigV4 settled on (or Content-Encoding: aws-chunked).
import type { Readable, Transform } from 'node:stream';
import { isS3Error } from '@vgwrdma/backend-contract';
import { headerValue } from '../auth/request-headers.js';
import type { PayloadMode, RequestHeaders } from '../auth/types.js';
import { AwsChunkedDecoder } from './aws-chunked-decoder.js';
import { bodyErrors } from './body-errors.js';
import { watchIdle } from './idle-watch.js';
import { PlainBody } from './plain-body.js';

export interface DecodedBody {
  /** The decoded payload; errors with an S3Error before 'end' if any verification fails. */
  stream: Readable;
  /** x-amz-decoded-content-length for aws-chunked bodies, else Content-Length. */
  decodedLength: number | undefined;
  /** Whether the body came aws-chunked (a streaming payload mode or Content-Encoding: aws-chunked). */
  awsChunked: boolean;
  /** A trailing header (lower-case name); meaningful once the stream has ended. */
  trailer(name: string): string | undefined;
}

const LENGTH = /^\d{1,16}$/;

function parseLength(value: string | undefined): number | undefined {
  const trimmed = value?.trim();
  return trimmed !== undefined && LENGTH.test(trimmed) ? Number(trimmed) : undefined;
}

function isAwsChunked(headers: RequestHeaders, payload: PayloadMode): boolean {
  if (payload.kind === 'streaming-signed' || payload.kind === 'streaming-unsigned-trailer') return true;
  const encoding = headerValue(headers, 'content-encoding');
  return encoding?.split(',').some((e) => e.trim().toLowerCase() === 'aws-chunked') ?? false;
}

function declaredTrailers(headers: RequestHeaders): string[] {
  const value = headerValue(headers, 'x-amz-trailer');
  if (value === undefined) return [];
  return value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

export interface DecodeOptions {
  /**
   * Milliseconds the client may send nothing while the gateway is reading the body; then the
   * body fails with RequestTimeout (and the error answer closes the connection). 0: no limit.
   */
  readonly idleTimeoutMs?: number;
  /** Called when the idle timeout cuts the body (the gateway counts these). */
  readonly onIdleTimeout?: () => void;
}

/** The idle timeout of one body: how long, and who to tell when it fires. */
interface IdleLimit {
  readonly ms: number;
  readonly onTimeout?: (() => void) | undefined;
}

const NO_IDLE_LIMIT: IdleLimit = { ms: 0 };

export function decodeBody(
  incoming: Readable,
  headers: RequestHeaders,
  payload: PayloadMode,
  options: DecodeOptions = {},
): DecodedBody {
  const idle: IdleLimit = { ms: options.idleTimeoutMs ?? 0, onTimeout: options.onIdleTimeout };
  if (isAwsChunked(headers, payload)) {
    const decodedLength = parseLength(headerValue(headers, 'x-amz-decoded-content-length'));
    const decoder = new AwsChunkedDecoder({
      ...(payload.kind === 'streaming-signed' ? { signing: payload } : {}),
      trailers:
        payload.kind === 'streaming-unsigned-trailer' ||
        (payload.kind === 'streaming-signed' ? payload.trailer : true),
      declaredTrailers: declaredTrailers(headers),
      decodedLength,
    });
    // A signed hash covers the bytes on the wire, framing included: check it before decoding,
    // or an unsigned Content-Encoding header would let a different body through.
    const source =
      payload.kind === 'signed' ? verifiedWire(incoming, headers, payload.sha256, idle) : incoming;
    attach(source, decoder, bodyErrors.truncated, source === incoming ? idle : NO_IDLE_LIMIT);
    return {
      stream: keepErrorsHandled(decoder),
      decodedLength,
      awsChunked: true,
      trailer: (name) => decoder.trailerSection.get(name),
    };
  }
  const body = verifiedWire(incoming, headers, payload.kind === 'signed' ? payload.sha256 : undefined, idle);
  return {
    stream: keepErrorsHandled(body),
    decodedLength: parseLength(headerValue(headers, 'content-length')),
    awsChunked: false,
    trailer: () => undefined,
  };
}

/**
 * The body can fail (client gone, bad signature) before anything consumes it, e.g. while the
 * handler is still checking preconditions or after it failed for another reason. Such an error
 * must not become an unhandled 'error' event that takes the whole gateway down. Consumers still
 * see it: a destroyed stream rejects later reads, pipelines and async iteration with its error.
 */
function keepErrorsHandled<T extends Readable>(stream: T): T {
  stream.on('error', () => {});
  return stream;
}

/** The body as sent, counted against Content-Length and checked against a signed hash. */
function verifiedWire(
  incoming: Readable,
  headers: RequestHeaders,
  sha256: string | undefined,
  idle: IdleLimit,
): PlainBody {
  const body = new PlainBody({ expectedLength: parseLength(headerValue(headers, 'content-length')), sha256 });
  attach(incoming, body, bodyErrors.shortBody, idle);
  return body;
}

/**
 * Pipes with backpressure. The source is never destroyed from here: when the decoded stream
 * fails or is dropped, the source is unpiped and left flowing, so the rest of the body is read
 * and discarded and the connection stays usable for the error response (and, with keep-alive,
 * the next request). A source that closes or fails before 'end' (client went away) fails the
 * decoded stream with IncompleteBody; one that sends nothing for `idle.ms` while the decoder
 * takes more fails it with RequestTimeout.
 */
function attach(source: Readable, decoder: Transform, early: () => Error, idle: IdleLimit): void {
  let ended = false;
  source.once('end', () => {
    ended = true;
  });
  source.once('error', (err) => {
    decoder.destroy(isS3Error(err) ? err : Object.assign(early(), { cause: err }));
  });
  source.once('close', () => {
    if (!ended && !decoder.destroyed) decoder.destroy(early());
  });
  decoder.once('close', () => {
    source.unpipe(decoder);
    if (!ended && !source.destroyed) source.resume();
  });
  source.pipe(decoder);
  watchIdle({
    source,
    reader: decoder,
    ms: idle.ms,
    onIdle: () => {
      idle.onTimeout?.();
      decoder.destroy(bodyErrors.idle());
    },
  });
}
