// Multipart scaffolding of the PosixBackend tests: an upload started for a key, a part sent to it,
// parts 1..n sent one after another, a complete with a part list, the parts a listing shows, and a
// listing paged through one call at a time.
import type {
  CompletedPart,
  CompleteMultipartUploadInput,
  CreateMultipartUploadInput,
  UploadPartInput,
  UploadRef,
} from '@vgwrdma/backend-contract';
import type { PosixBackend } from '../src/index.js';
import { body, ctx } from './helpers.js';

/** Starts an upload of `key` (with the create's other fields in `extra`); answers where it is. */
export async function startUpload(
  backend: PosixBackend,
  bucket: string,
  key: string,
  extra: Omit<CreateMultipartUploadInput, 'bucket' | 'key'> = {},
): Promise<UploadRef> {
  const up = await backend.createMultipartUpload(ctx(), { bucket, key, ...extra });
  return { bucket, key, uploadId: up.uploadId };
}

/** Sends `data` as part `partNumber` of `at` (with other part fields in `extra`). */
export function sendPart(
  backend: PosixBackend,
  at: UploadRef,
  partNumber: number,
  data: string | Buffer,
  extra: Omit<UploadPartInput, keyof UploadRef | 'partNumber' | 'body'> = {},
) {
  return backend.uploadPart(ctx(), { ...at, partNumber, body: body(data), ...extra });
}

/** Sends `datas` as parts 1..n of `at`, one after another; answers the part list. */
export async function sendParts(
  backend: PosixBackend,
  at: UploadRef,
  datas: readonly (string | Buffer)[],
): Promise<CompletedPart[]> {
  const parts: CompletedPart[] = [];
  for (const [i, data] of datas.entries()) {
    parts.push({ partNumber: i + 1, etag: (await sendPart(backend, at, i + 1, data)).etag });
  }
  return parts;
}

/** The part list naming these ETags as parts 1..n. */
export function numbered(...etags: string[]): CompletedPart[] {
  return etags.map((etag, i) => ({ partNumber: i + 1, etag }));
}

/** Completes `at` with `parts` (and the complete's other fields in `extra`). */
export function complete(
  backend: PosixBackend,
  at: UploadRef,
  parts: CompletedPart[],
  extra: Omit<CompleteMultipartUploadInput, keyof UploadRef | 'parts'> = {},
) {
  return backend.completeMultipartUpload(ctx(), { ...at, parts, ...extra });
}

/** The parts a ListParts of `at` shows (up to `maxParts`). */
export async function listedParts(backend: PosixBackend, at: UploadRef, maxParts = 10) {
  return (await backend.listParts(ctx(), { ...at, maxParts })).parts;
}

/**
 * Pages through a listing: `list` is called with the markers `next` takes from the page before
 * (none at first; the ones it leaves empty are left out), until a page is not truncated or
 * `most` pages were read; answers the pages.
 */
export async function pageThrough<P extends { isTruncated: boolean }>(
  most: number,
  list: (markers: Record<string, string>) => Promise<P>,
  next: (page: P) => Record<string, string | undefined>,
): Promise<P[]> {
  const pages: P[] = [];
  let markers: Record<string, string> = {};
  for (let i = 0; i < most; i++) {
    const page = await list(markers);
    pages.push(page);
    if (!page.isTruncated) break;
    markers = Object.fromEntries(
      Object.entries(next(page)).filter((e): e is [string, string] => Boolean(e[1])),
    );
  }
  return pages;
}
