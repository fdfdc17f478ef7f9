// Block ids. Blob Storage wants every block id of one blob to be base64 of the same length, so
// all ids this backend stages share one layout: upload id (32 hex; zeros for a PutObject), part
// number (5 digits; 0 for a PutObject), a nonce per staging (8 hex) and the block's index within
// that staging (6 digits). The nonce keeps a failed re-upload of a part from touching the blocks
// the previous upload of that part staged.
import { randomBytes } from 'node:crypto';

export const PUT_UPLOAD = '0'.repeat(32);

export function newNonce(): string {
  return randomBytes(4).toString('hex');
}

export function newUploadId(): string {
  return randomBytes(16).toString('hex');
}

export function blockId(uploadId: string, part: number, nonce: string, index: number): string {
  const raw = `${uploadId}${String(part).padStart(5, '0')}${nonce}${String(index).padStart(6, '0')}`;
  return Buffer.from(raw).toString('base64');
}

/** The part number a block id was staged for (NaN for a foreign id). */
export function partOfBlock(id: string): number {
  const raw = Buffer.from(id, 'base64').toString();
  return raw.length === 51 ? Number(raw.slice(32, 37)) : Number.NaN;
}
