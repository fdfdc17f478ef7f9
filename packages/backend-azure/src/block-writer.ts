// Streams an upload body into Blob Storage without making anything visible before it is checked:
// the bytes are cut into blocks, each staged as it fills while BodyDigest hashes them, and only a
// body that passed its checks (length, Content-MD5, x-amz-checksum-*) is committed — a body that
// fits one block with a single Put Blob, a larger one with Put Block List. A failed body leaves
// the blob as it was; the staged blocks are dropped by Blob Storage later.
import type { BlockBlobClient } from '@azure/storage-blob';
import { BodyDigest, type BodyDigestOptions, type BodyDigestResult } from '@vgwrdma/backend-contract';
import { az } from './azure-error.js';
import { blockId, newNonce } from './block-ids.js';

/** Bytes per staged block: large enough to keep round trips few, small enough to hold in memory. */
export const BLOCK_SIZE = 8 * 1024 * 1024;

/** Where the blocks go: the upload and part they belong to (PUT_UPLOAD/0 for PutObject). */
export interface BlockTarget {
  blob: BlockBlobClient;
  uploadId: string;
  part: number;
}

export interface StagedBody {
  digest: BodyDigestResult;
  /** The staging's nonce (part of every block id it staged). */
  nonce: string;
  /** Ids of the staged blocks, in order; empty when the body was kept in `single`. */
  blockIds: string[];
  /** The whole body, when it fit in one block (nothing staged). */
  single?: Buffer;
}

/** Put Block requests in flight per upload (each holds its 8 MiB buffer until answered). */
const STAGE_AHEAD = 4;

/** Reads `body` into staged blocks; throws the digest's S3 error when a check fails. */
export async function stageBody(
  target: BlockTarget,
  body: AsyncIterable<Uint8Array | string>,
  options: BodyDigestOptions,
  /** Stage even a body that fits one block (a part is always committed as part of a list). */
  alwaysStage = false,
): Promise<StagedBody> {
  const digest = new BodyDigest(options);
  const nonce = newNonce();
  const blockIds: string[] = [];
  const inflight: Promise<unknown>[] = [];
  let block = Buffer.allocUnsafe(BLOCK_SIZE);
  let used = 0;
  // Blocks travel while the body keeps arriving, at most STAGE_AHEAD at once.
  const stage = async (bytes: Buffer) => {
    const id = blockId(target.uploadId, target.part, nonce, blockIds.length);
    blockIds.push(id);
    const put = az(() => target.blob.stageBlock(id, bytes, bytes.length));
    put.catch(() => {}); // awaited below: this only keeps an early failure from going unobserved
    inflight.push(put);
    if (inflight.length >= STAGE_AHEAD) await inflight.shift();
  };
  try {
    for await (const chunk of body) {
      // Copied into our own block: a lent chunk (RDMA registered memory) is never kept past here.
      let src = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      digest.update(src);
      while (src.length > 0) {
        const n = Math.min(src.length, BLOCK_SIZE - used);
        block.set(src.subarray(0, n), used);
        used += n;
        src = src.subarray(n);
        if (used === BLOCK_SIZE) {
          await stage(block);
          block = Buffer.allocUnsafe(BLOCK_SIZE);
          used = 0;
        }
      }
    }
    const result = digest.finish();
    if (blockIds.length === 0 && !alwaysStage) {
      return { digest: result, nonce, blockIds, single: block.subarray(0, used) };
    }
    if (used > 0) await stage(block.subarray(0, used));
    await Promise.all(inflight);
    return { digest: result, nonce, blockIds };
  } catch (err) {
    await Promise.allSettled(inflight);
    throw err;
  }
}
