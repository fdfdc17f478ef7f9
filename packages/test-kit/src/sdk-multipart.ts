// A multipart upload through @aws-sdk/client-s3: create, then parts 1..n in order, each sent by the
// caller (plainly or with an RDMA token; it checks what it must of the answer and returns the
// part's fields for the part list), then complete with that list.
import {
  type CompletedPart,
  CompleteMultipartUploadCommand,
  type CompleteMultipartUploadCommandOutput,
  CreateMultipartUploadCommand,
  type CreateMultipartUploadCommandInput,
  type S3Client,
  UploadPartCommand,
  type UploadPartCommandInput,
} from '@aws-sdk/client-s3';

/** What a part adds to Bucket, Key, UploadId and PartNumber: its body, its checksum fields. */
export type SdkPartInput = Omit<UploadPartCommandInput, 'Bucket' | 'Key' | 'UploadId' | 'PartNumber'>;

/** Sends part `index` (0-based); answers its entry of the part list, less the PartNumber. */
export type SendPart = (
  command: UploadPartCommand,
  index: number,
) => Promise<Omit<CompletedPart, 'PartNumber'>>;

export async function sdkMultipartUpload(
  s3: S3Client,
  create: CreateMultipartUploadCommandInput,
  parts: readonly SdkPartInput[],
  send: SendPart,
): Promise<{ Parts: CompletedPart[]; done: CompleteMultipartUploadCommandOutput }> {
  const { Bucket, Key } = create;
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand(create));
  const Parts: CompletedPart[] = [];
  for (const [i, part] of parts.entries()) {
    const command = new UploadPartCommand({ ...part, Bucket, Key, UploadId, PartNumber: i + 1 });
    Parts.push({ PartNumber: i + 1, ...(await send(command, i)) });
  }
  const done = await s3.send(
    new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }),
  );
  return { Parts, done };
}
