// A multipart upload made part by part with the SDK computing checksums (ChecksumAlgorithm on the
// create and on every part, ChecksumType when given), and its Complete: the checksum e2e tests
// build their uploads this way and then complete them as their case asks.
import {
  type ChecksumType,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  type CompleteMultipartUploadCommandInput,
  CreateMultipartUploadCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { type Algorithm, type ChecksumFields, FIELD } from './checksum-fields.js';

export interface ChecksumUpload {
  readonly Bucket: string;
  readonly Key: string;
  readonly UploadId: string;
  /** The parts as Complete lists them, each with the checksum the gateway verified. */
  readonly parts: CompletedPart[];
  /** The part checksums the SDK computed and the gateway verified, base64. */
  readonly sums: string[];
}

/** Creates the upload and sends `bodies` as parts 1..N, with `algorithm`'s checksums when given. */
export async function uploadParts(
  s3: S3Client,
  Bucket: string,
  Key: string,
  bodies: readonly Buffer[],
  algorithm?: Algorithm,
  type?: ChecksumType,
): Promise<ChecksumUpload> {
  const { UploadId } = await s3.send(
    new CreateMultipartUploadCommand({
      Bucket,
      Key,
      ...(algorithm ? { ChecksumAlgorithm: algorithm } : {}),
      ...(type ? { ChecksumType: type } : {}),
    }),
  );
  const parts: CompletedPart[] = [];
  const sums: string[] = [];
  for (const [i, Body] of bodies.entries()) {
    const up = await s3.send(
      new UploadPartCommand({
        Bucket,
        Key,
        UploadId,
        PartNumber: i + 1,
        Body,
        ...(algorithm ? { ChecksumAlgorithm: algorithm } : {}),
      }),
    );
    const sum = algorithm ? (up as ChecksumFields)[FIELD[algorithm]] : undefined;
    if (sum !== undefined) sums.push(sum);
    parts.push({
      PartNumber: i + 1,
      ETag: up.ETag,
      ...(algorithm && sum ? { [FIELD[algorithm]]: sum } : {}),
    });
  }
  return { Bucket, Key, UploadId: UploadId as string, parts, sums };
}

/** CompleteMultipartUpload of `u` with its parts, plus `extra` (a stated checksum, a type). */
export function completeUpload(
  s3: S3Client,
  u: ChecksumUpload,
  extra: Partial<CompleteMultipartUploadCommandInput> = {},
) {
  return s3.send(
    new CompleteMultipartUploadCommand({
      Bucket: u.Bucket,
      Key: u.Key,
      UploadId: u.UploadId,
      MultipartUpload: { Parts: u.parts },
      ...extra,
    }),
  );
}
