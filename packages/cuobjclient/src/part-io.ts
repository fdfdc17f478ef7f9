// One attempt at one part of a managed transfer, on one pooled session: fill the session's
// registered memory with the part, send UploadPart (or the single PutObject) with a token over
// exactly the part's bytes — the token's size field says how many, so the last, shorter part
// uses the same session (docs/protocol.md "The token") — or send a ranged GET whose token takes
// exactly the range, then hand the bytes on. The verdicts are the Session's (judge-reply.ts):
// the byte count must equal the part's length. A decline comes back as a value so the queue
// can back off and retry; with fallback 'http' the part's bytes go in the HTTP body instead.

import {
  GetObjectCommand,
  type GetObjectCommandOutput,
  PutObjectCommand,
  type PutObjectCommandInput,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getChecksum } from '@vgwrdma/backend-contract';
import { DECLINE_REASON_HEADER } from '@vgwrdma/rdma-protocol';
import { CuObjError } from './errors.js';
import { discardBody, drainBody, readBodyInto } from './http-body.js';
import { gatewayAnswer, judgeFailure, judgeSuccess } from './judge-reply.js';
import { type RawAnswer, RdmaRequestError, sendWithRdma } from './rdma-request.js';
import type { Session } from './session.js';
import type { SessionBuffer } from './session-buffer.js';
import type { PartSpan } from './transfer-options.js';
import { declined, isServiceError } from './transfer-result.js';
import type { ManagedChecksumAlgorithm } from './transfer-types.js';

/** The registry's names of the algorithms. */
const REGISTRY = { crc32: 'CRC32', crc32c: 'CRC32C', crc64nvme: 'CRC64NVME' } as const;
/** The SDK input field of each algorithm (the HTTP fallback sends it as a field). */
export const SDK_CHECKSUM_FIELD = {
  crc32: 'ChecksumCRC32',
  crc32c: 'ChecksumCRC32C',
  crc64nvme: 'ChecksumCRC64NVME',
} as const;

export function checksumSpec(algorithm: ManagedChecksumAlgorithm) {
  return getChecksum(REGISTRY[algorithm]);
}

/** The base64 checksum of `bytes`, off the main thread where the kernel is native. */
export async function checksumOf(algorithm: ManagedChecksumAlgorithm, bytes: Uint8Array): Promise<string> {
  const h = checksumSpec(algorithm).create();
  if (h.updateOffThread) await h.updateOffThread(bytes);
  else h.update(bytes);
  return h.digest();
}

/** Where a part upload goes. */
export type PutTarget =
  | { readonly kind: 'part'; readonly bucket: string; readonly key: string; readonly uploadId: string }
  | {
      readonly kind: 'object';
      readonly bucket: string;
      readonly key: string;
      readonly extra: Pick<PutObjectCommandInput, 'ContentType' | 'Metadata'>;
    };

export type PartAttempt =
  | {
      readonly kind: 'done';
      readonly via: 'rdma' | 'http';
      readonly etag: string | undefined;
      /** The part's checksum (base64), when one was asked for. */
      readonly checksum: string | undefined;
      /** The answer's headers (lower-case), e.g. the object's checksum on a single PUT. */
      readonly headers: Readonly<Record<string, string>>;
    }
  | {
      readonly kind: 'declined';
      readonly error: CuObjError;
      /** x-amz-rdma-decline-reason, when the gateway sent one (isRetryableDecline judges it). */
      readonly reason: string | undefined;
    };

/** Puts the part's bytes into the session's host memory (`view`: [0, length) of it). */
export type FillPart = (view: Uint8Array, mem: SessionBuffer, span: PartSpan) => Promise<void>;
/** Takes a received part's bytes from the session's host memory. */
export type DeliverPart = (view: Uint8Array, mem: SessionBuffer, span: PartSpan) => Promise<void>;

export interface PutPartArgs {
  readonly s3: S3Client;
  readonly target: PutTarget;
  readonly span: PartSpan;
  readonly fill: FillPart;
  readonly checksum: ManagedChecksumAlgorithm | undefined;
  /** Send the body over HTTP on a decline (the queue sets it once the decline retries are spent). */
  readonly http: boolean;
}

function putCommand(target: PutTarget, span: PartSpan, body: Uint8Array, sums: Record<string, string>) {
  const { bucket: Bucket, key: Key } = target;
  return target.kind === 'part'
    ? new UploadPartCommand({
        ...sums,
        Bucket,
        Key,
        UploadId: target.uploadId,
        PartNumber: span.number,
        Body: body,
      })
    : new PutObjectCommand({ ...target.extra, ...sums, Bucket, Key, Body: body });
}

function declineReason(answer: RawAnswer | undefined): string | undefined {
  return answer?.headers[DECLINE_REASON_HEADER];
}

/** Network and client-side errors are rethrown as they are; gateway answers become CuObjErrors. */
function rethrowUnlessDeclined(op: 'put' | 'get', err: unknown): void {
  if (!(err instanceof RdmaRequestError)) throw err;
  if (err.answer === undefined && !isServiceError(err.cause)) throw err.cause;
  judgeFailure(op, err.answer, err.cause); // throws unless declined
}

export function putPart(session: Session, a: PutPartArgs): Promise<PartAttempt> {
  return session.runExclusive(async (mem) => {
    const view = mem.staged.subarray(0, a.span.length);
    await a.fill(view, mem, a.span);
    const sum = a.checksum === undefined ? undefined : await checksumOf(a.checksum, view);
    const header = a.checksum === undefined ? undefined : checksumSpec(a.checksum).header;
    if (a.http) return putOverHttp(a, view, sum);
    const token = mem.region.token(0, a.span.length, 'put');
    const command = putCommand(a.target, a.span, new Uint8Array(0), {});
    let answer: RawAnswer;
    let etag: string | undefined;
    try {
      const sent = await sendWithRdma(a.s3, command as UploadPartCommand, {
        token,
        checksum: header === undefined || sum === undefined ? undefined : { header, value: sum },
      });
      answer = sent.answer;
      etag = sent.output.ETag;
    } catch (err) {
      rethrowUnlessDeclined('put', err);
      const e = err as RdmaRequestError;
      return { kind: 'declined', error: declined('PUT', e.answer, e.cause), reason: declineReason(e.answer) };
    }
    if (judgeSuccess('put', answer, a.span.length) === 'no-reply') {
      throw new CuObjError('VGW_ERR_CUOBJ_NO_RDMA_REPLY', 'PUT: gateway did not confirm RDMA offload', {
        gateway: gatewayAnswer(answer),
      });
    }
    return { kind: 'done', via: 'rdma', etag, checksum: sum, headers: answer.headers };
  });
}

async function putOverHttp(a: PutPartArgs, view: Uint8Array, sum: string | undefined): Promise<PartAttempt> {
  const sums = a.checksum === undefined || sum === undefined ? {} : { [SDK_CHECKSUM_FIELD[a.checksum]]: sum };
  const command = putCommand(a.target, a.span, view, sums) as UploadPartCommand;
  let headers: Record<string, string> = {};
  command.middlewareStack.add(
    (next) => async (args) => {
      const r = await next(args);
      const raw = (r.response as { headers?: Record<string, string> } | undefined)?.headers ?? {};
      headers = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), String(v)]));
      return r;
    },
    { step: 'deserialize', priority: 'low', name: 'cuobjclientPartHeaders' },
  );
  const out = await a.s3.send(command);
  return { kind: 'done', via: 'http', etag: out.ETag, checksum: sum, headers };
}

export interface GetRangeArgs {
  readonly s3: S3Client;
  readonly bucket: string;
  readonly key: string;
  readonly span: PartSpan;
  /** The object's ETag from HEAD: a range of a replaced object is refused (412), never mixed in. */
  readonly etag: string | undefined;
  readonly deliver: DeliverPart;
  readonly checksum: ManagedChecksumAlgorithm | undefined;
  readonly http: boolean;
}

export function getRange(session: Session, a: GetRangeArgs): Promise<PartAttempt> {
  return session.runExclusive(async (mem) => {
    const view = mem.staged.subarray(0, a.span.length);
    const token = mem.region.token(0, a.span.length, 'get');
    const command = new GetObjectCommand({
      Bucket: a.bucket,
      Key: a.key,
      Range: `bytes=${a.span.offset}-${a.span.offset + a.span.length - 1}`,
      ...(a.etag === undefined ? {} : { IfMatch: a.etag }),
    });
    let sent: { output: GetObjectCommandOutput; answer: RawAnswer };
    try {
      sent = await sendWithRdma(a.s3, command, { token });
    } catch (err) {
      rethrowUnlessDeclined('get', err); // a GET decline is a 2xx answer: this throws
      throw err;
    }
    const { output, answer } = sent;
    let verdict: ReturnType<typeof judgeSuccess>;
    try {
      verdict = judgeSuccess('get', answer, a.span.length);
    } catch (err) {
      discardBody(output.Body);
      throw err;
    }
    let via: 'rdma' | 'http' = 'rdma';
    if (verdict === 'rdma') await drainBody(output.Body);
    else if (verdict === 'no-reply' && !a.http) {
      discardBody(output.Body);
      throw new CuObjError('VGW_ERR_CUOBJ_NO_RDMA_REPLY', 'GET: gateway did not confirm RDMA offload', {
        gateway: gatewayAnswer(answer),
      });
    } else if (!a.http) {
      discardBody(output.Body);
      return { kind: 'declined', error: declined('GET', answer, undefined), reason: declineReason(answer) };
    } else {
      await readBodyInto(output.Body, view); // the declined GET carries the range in its body
      via = 'http';
    }
    const sum = a.checksum === undefined ? undefined : await checksumOf(a.checksum, view);
    await a.deliver(view, mem, a.span);
    return { kind: 'done', via, etag: output.ETag, checksum: sum, headers: answer.headers };
  });
}
