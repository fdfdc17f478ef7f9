// A managed upload: up to the multipart threshold one RDMA PutObject; above it
// CreateMultipartUpload, the parts by RDMA UploadPart through the part queue, then
// CompleteMultipartUpload (the standard `<md5>-<N>` ETag). With a checksum every part carries
// x-amz-checksum-<algo> over its bytes (the gateway verifies each), and the Complete states the
// object's value — FULL_OBJECT: the parts' CRCs combined; COMPOSITE: the CRC of their CRCs, -N —
// which the gateway checks against its own. Any failure or abort after the Create aborts the
// upload (AbortMultipartUpload), so no parts stay behind and no object appears.

import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  type ChecksumAlgorithm as SdkChecksumAlgorithm,
} from '@aws-sdk/client-s3';
import { CuObjError } from './errors.js';
import type { SessionMemory } from './open-buffer.js';
import { checksumOf, checksumSpec, putPart, SDK_CHECKSUM_FIELD } from './part-io.js';
import { abortedError, type DonePart, isRetryable, type QueueSettings, runParts } from './part-queue.js';
import type { SessionPool } from './session-pool.js';
import { uploadEndpoint } from './transfer-endpoints.js';
import {
  checkChecksum,
  MAX_OBJECT_SIZE,
  partSizeFor,
  planParts,
  type ResolvedOptions,
} from './transfer-options.js';
import type {
  ManagedChecksum,
  ManagedChecksumAlgorithm,
  UploadRequest,
  UploadResult,
} from './transfer-types.js';

export interface TransferContext {
  readonly s3: S3Client;
  readonly options: ResolvedOptions;
  pool(memory: SessionMemory, size: number): SessionPool;
}

const SDK_ALGORITHM: Record<ManagedChecksumAlgorithm, SdkChecksumAlgorithm> = {
  crc32: 'CRC32',
  crc32c: 'CRC32C',
  crc64nvme: 'CRC64NVME',
};

function queueSettings(ctx: TransferContext, req: UploadRequest, totalBytes: number): QueueSettings {
  const o = ctx.options;
  return { ...o, signal: req.signal, onProgress: req.onProgress, totalBytes };
}

/** The object's checksum as the Complete states it, from the parts' checksums in order. */
function objectChecksum(c: ManagedChecksum, parts: readonly DonePart[]): string {
  const spec = checksumSpec(c.algorithm);
  if ((c.type ?? 'FULL_OBJECT') === 'FULL_OBJECT') {
    const combine = spec.combine;
    if (!combine) throw new Error(`${c.algorithm} cannot be combined`);
    return parts
      .slice(1)
      .reduce((acc, p) => combine(acc, p.checksum ?? '', p.span.length), parts[0]?.checksum ?? '');
  }
  const h = spec.create();
  for (const p of parts) h.update(Buffer.from(p.checksum ?? '', 'base64'));
  return `${h.digest()}-${parts.length}`;
}

export async function managedUpload(ctx: TransferContext, req: UploadRequest): Promise<UploadResult> {
  const t0 = performance.now();
  const src = uploadEndpoint(req.source);
  const checksum = req.checksum === null ? undefined : (req.checksum ?? ctx.options.checksum);
  checkChecksum(checksum, 'upload checksum');
  if (src.size > MAX_OBJECT_SIZE)
    throw new CuObjError('VGW_ERR_CUOBJ_INVALID_OPTION', `source is ${src.size} bytes; S3's limit is 5 TiB`);
  if (req.signal?.aborted) throw abortedError(req.signal);
  const extra = {
    ...(req.contentType === undefined ? {} : { ContentType: req.contentType }),
    ...(req.metadata === undefined ? {} : { Metadata: { ...req.metadata } }),
  };
  const { bucket, key } = req;
  if (src.size === 0) {
    const sums =
      checksum === undefined
        ? {}
        : {
            [SDK_CHECKSUM_FIELD[checksum.algorithm]]: await checksumOf(checksum.algorithm, new Uint8Array(0)),
          };
    const out = await ctx.s3.send(
      new PutObjectCommand({ ...extra, ...sums, Bucket: bucket, Key: key, Body: new Uint8Array(0) }),
    );
    req.onProgress?.({ bytesDone: 0, totalBytes: 0, partsDone: 0, totalParts: 0 });
    return result(
      'single',
      0,
      out.ETag,
      checksum,
      undefined,
      { parts: [], retries: 0, httpParts: 0, maxInFlight: 0 },
      t0,
    );
  }
  if (src.size <= ctx.options.multipartThreshold) {
    const pool = ctx.pool(src.memory, ctx.options.partSize);
    const target = { kind: 'object', bucket, key, extra } as const;
    const q = await runParts(
      [{ number: 1, offset: 0, length: src.size }],
      pool,
      queueSettings(ctx, req, src.size),
      (s, span, http) =>
        putPart(s, { s3: ctx.s3, target, span, fill: src.part, checksum: checksum?.algorithm, http }),
    );
    const only = q.parts[0];
    const stored =
      checksum === undefined ? undefined : only?.headers[checksumSpec(checksum.algorithm).header];
    return result('single', src.size, only?.etag, checksum, stored, q, t0);
  }
  const partSize = partSizeFor(src.size, ctx.options.partSize);
  const spans = planParts(src.size, partSize);
  const pool = ctx.pool(src.memory, partSize);
  const created = await ctx.s3.send(
    new CreateMultipartUploadCommand({
      ...extra,
      Bucket: bucket,
      Key: key,
      ...(checksum === undefined
        ? {}
        : {
            ChecksumAlgorithm: SDK_ALGORITHM[checksum.algorithm],
            ChecksumType: checksum.type ?? 'FULL_OBJECT',
          }),
    }),
  );
  const uploadId = created.UploadId;
  if (uploadId === undefined)
    throw new CuObjError('VGW_ERR_CUOBJ_GATEWAY_ERROR', 'CreateMultipartUpload returned no UploadId');
  const target = { kind: 'part', bucket, key, uploadId } as const;
  try {
    const q = await runParts(spans, pool, queueSettings(ctx, req, src.size), (s, span, http) =>
      putPart(s, { s3: ctx.s3, target, span, fill: src.part, checksum: checksum?.algorithm, http }),
    );
    if (req.signal?.aborted) throw abortedError(req.signal);
    const field = checksum === undefined ? undefined : SDK_CHECKSUM_FIELD[checksum.algorithm];
    const parts: CompletedPart[] = q.parts.map((p) => ({
      PartNumber: p.span.number,
      ETag: p.etag,
      ...(field === undefined ? {} : { [field]: p.checksum }),
    }));
    const whole =
      checksum === undefined || field === undefined
        ? {}
        : { [field]: objectChecksum(checksum, q.parts), ChecksumType: checksum.type ?? 'FULL_OBJECT' };
    const complete = () =>
      ctx.s3.send(
        new CompleteMultipartUploadCommand({
          ...whole,
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    let out: Awaited<ReturnType<typeof complete>>;
    try {
      out = await complete();
    } catch (e) {
      if (!isRetryable(e)) throw e;
      out = await complete();
    }
    const stored =
      field === undefined ? undefined : (out as unknown as Record<string, string | undefined>)[field];
    return result('multipart', src.size, out.ETag, checksum, stored, q, t0);
  } catch (err) {
    await abortUpload(ctx.s3, bucket, key, uploadId);
    throw err;
  }
}

/** Best effort, twice: the upload's parts must not stay behind. */
async function abortUpload(s3: S3Client, bucket: string, key: string, uploadId: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    try {
      await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
      return;
    } catch (e) {
      if ((e as { name?: string }).name === 'NoSuchUpload') return;
    }
  }
}

function result(
  method: 'single' | 'multipart',
  bytes: number,
  etag: string | undefined,
  checksum: ManagedChecksum | undefined,
  stored: string | undefined,
  q: {
    readonly parts: readonly unknown[];
    readonly retries: number;
    readonly httpParts: number;
    readonly maxInFlight: number;
  },
  t0: number,
): UploadResult {
  return {
    method,
    bytes,
    etag,
    parts: q.parts.length,
    retries: q.retries,
    httpParts: q.httpParts,
    maxInFlight: q.maxInFlight,
    ms: performance.now() - t0,
    checksum:
      checksum === undefined || stored === undefined
        ? undefined
        : { algorithm: checksum.algorithm, value: stored },
  };
}
