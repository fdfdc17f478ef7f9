// What every operation module is handed: the service client and the lookups they share.
import type { BlobServiceClient, BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import type { BackendMethod, UpstreamOp } from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';

/** Multipart upload records live under this prefix of the bucket's container, hidden from S3 clients. */
export const UPLOADS_PREFIX = '.vgw-uploads/';

/** An operation of this backend: a Backend method's function of the upstream (see UpstreamOp). */
export type AzureOp<M extends BackendMethod> = UpstreamOp<Upstream, M>;

export interface Upstream {
  service: BlobServiceClient;
}

export function container(up: Upstream, bucket: string): ContainerClient {
  return up.service.getContainerClient(bucket);
}

export function blockBlob(up: Upstream, bucket: string, key: string): BlockBlobClient {
  return container(up, bucket).getBlockBlobClient(key);
}

const MAX_KEY_BYTES = 1024;
const MAX_METADATA_BYTES = 2048;

/** S3's key limits, and the one prefix this backend keeps for itself. */
export function checkKey(key: string): void {
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError');
  if (key.startsWith(UPLOADS_PREFIX)) {
    throw S3Error.custom('InvalidArgument', `keys under ${UPLOADS_PREFIX} are reserved by the azure backend`);
  }
}

/** S3 counts the UTF-8 bytes of every user-metadata name and value toward 2 KiB. */
export function checkMetadata(metadata: Record<string, string> | undefined): void {
  if (!metadata) return;
  let total = 0;
  for (const [k, v] of Object.entries(metadata)) total += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (total > MAX_METADATA_BYTES) throw new S3Error('MetadataTooLarge');
}
