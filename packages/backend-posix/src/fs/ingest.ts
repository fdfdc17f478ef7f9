// Streams a request body into an open file while computing its ETag (the MD5, or in the parts
// mode the parts' MD5s at once: backend-contract's etag-digest.ts) and the checksums asked for, in one pass; the file writes run on the libuv pool, and so does the MD5 of a large
// body (streamDigest: off the main thread from 1 MiB, with the native kernels installed) while the main thread
// reads the next chunk. A body lent from registered memory (BORROW_CHUNKS) is written and hashed
// with no copy. Enforces the declared length and a size limit, and stops on abort.
// The caller owns the file: on any error here it discards the temp file, so nothing partial is
// ever published.
import type { Readable } from 'node:stream';
import {
  BORROW_CHUNKS,
  type ChecksumAlgorithm,
  type Checksums,
  type EtagMode,
  type EtagResult,
  etagDigest,
  getChecksum,
  type Hasher,
  isLendingBody,
  MD5_ETAG,
  S3Error,
} from '@vgwrdma/backend-contract';
import type { PositionalFile } from './fd-file.js';
import { PositionalWriter } from './positional-writer.js';

interface IngestOptions {
  body: Readable;
  signal: AbortSignal;
  /** Bytes the body must deliver; IncompleteBody when it delivers another count. */
  contentLength?: number | undefined;
  /** Largest accepted size; EntityTooLarge above it. */
  maxSize?: number | undefined;
  algorithms: readonly ChecksumAlgorithm[];
  /** How the ETag is computed (default: the MD5 of the whole body). */
  etag?: EtagMode | undefined;
  /** Where in the file the body's first byte goes (default 0; a multipart part written in place). */
  at?: number | undefined;
}

interface IngestResult {
  size: number;
  /** The ETag, and the MD5 it is when it is one. */
  etag: EtagResult;
  checksums: Checksums;
}

export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error('The request was aborted');
  err.name = 'AbortError';
  return err;
}

export async function ingest(fh: PositionalFile, opts: IngestOptions): Promise<IngestResult> {
  const { body, signal, contentLength, maxSize } = opts;
  if (signal.aborted) throw abortError(signal);
  if (contentLength !== undefined && maxSize !== undefined && contentLength > maxSize) {
    throw new S3Error('EntityTooLarge');
  }
  const lending = isLendingBody(body);
  const etag = etagDigest(opts.etag ?? MD5_ETAG, contentLength, lending);
  const hashers = opts.algorithms.map(
    (alg) => [alg, getChecksum(alg).create()] as [ChecksumAlgorithm, Hasher],
  );
  // A stalled body never yields again; destroying it on abort ends the loop below.
  const onAbort = () => body.destroy(abortError(signal));
  signal.addEventListener('abort', onAbort, { once: true });
  const writer = new PositionalWriter(fh, opts.at ?? 0);
  let size = 0;
  /** Hashes a chunk (while its write, already started, runs). */
  const take = (chunk: Buffer) => {
    etag.update(chunk);
    for (const [, h] of hashers) h.update(chunk);
  };
  const count = (n: number) => {
    size += n;
    if (contentLength !== undefined && size > contentLength) throw new S3Error('IncompleteBody');
    if (maxSize !== undefined && size > maxSize) throw new S3Error('EntityTooLarge');
  };
  // Off-thread hash updates still running (they read lent memory until they settle).
  const offThread = new Set<Promise<void>>();
  try {
    if (lending) {
      // Chunks lent from registered memory: written straight from it while the ETag's MD5s and the CRCs
      // that can run off the main thread do so; handed back once all of them finished. No copy.
      const [inline, off] = partitionHashers(hashers);
      for await (const lent of body[BORROW_CHUNKS]()) {
        if (signal.aborted) {
          lent.release();
          throw abortError(signal);
        }
        try {
          count(lent.bytes.length);
        } catch (err) {
          lent.release();
          throw err;
        }
        // The parts mode hashes a copy, so the slice goes back once written (its parts' MD5s
        // run on, many at once); the md5 mode hashes the lent bytes in place.
        let etagDone: Promise<void> = Promise.resolve();
        if (etag.prefersCopies) etag.updateCopy(lent.bytes);
        else etagDone = new Promise<void>((resolve) => etag.update(lent.bytes, resolve));
        const hashed = Promise.all([etagDone, ...off.map((h) => h.updateOffThread(lent.bytes))]).then(
          () => undefined,
        );
        offThread.add(hashed);
        writer.writeLent(lent.bytes, () => {
          hashed.finally(() => {
            offThread.delete(hashed);
            lent.release();
          });
        });
        for (const h of inline) h.update(lent.bytes);
        await writer.drain();
        const queued = etag.backpressure();
        if (queued) await queued;
      }
    } else {
      for await (const raw of body) {
        const chunk: Buffer = typeof raw === 'string' ? Buffer.from(raw) : (raw as Buffer);
        count(chunk.length);
        take(chunk);
        writer.push(chunk);
        await writer.drain();
        const queued = etag.backpressure();
        if (queued) await queued;
      }
    }
    if (signal.aborted) throw abortError(signal);
    await writer.finish();
  } catch (err) {
    etag.dispose();
    if (signal.aborted) throw abortError(signal);
    if (err instanceof S3Error) throw err;
    if (isBodyFailure(err)) {
      throw new S3Error('IncompleteBody', 'The request body terminated unexpectedly', { cause: err });
    }
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
    // No write or hash may still read a chunk (or lent memory) once the caller moves on.
    await writer.settle();
    while (offThread.size > 0) await Promise.allSettled([...offThread]);
  }
  if (contentLength !== undefined && size !== contentLength) {
    etag.dispose();
    throw new S3Error('IncompleteBody');
  }
  const checksums: Checksums = {};
  for (const [alg, h] of hashers) checksums[alg] = h.digest();
  return { size, etag: await etag.result(), checksums };
}

type OffThreadHasher = Hasher & Required<Pick<Hasher, 'updateOffThread'>>;

/** The hashers that must run here, and those that can run off the main thread (native CRCs). */
function partitionHashers(hashers: readonly [ChecksumAlgorithm, Hasher][]): [Hasher[], OffThreadHasher[]] {
  const inline: Hasher[] = [];
  const off: OffThreadHasher[] = [];
  for (const [, h] of hashers) {
    if (h.updateOffThread) off.push(h as OffThreadHasher);
    else inline.push(h);
  }
  return [inline, off];
}

/** Errors of the incoming stream (not of the file system): the client's body ended badly. */
function isBodyFailure(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | undefined;
  if (!e) return false;
  if (e.code === 'ERR_STREAM_PREMATURE_CLOSE' || e.code === 'ECONNRESET' || e.code === 'ECONNABORTED')
    return true;
  // fs errors carry a syscall; anything else came from the body stream.
  return e.syscall === undefined;
}

/** Reads a body to its end, expecting nothing: folder objects must be empty. */
export async function drainEmpty(body: Readable, signal: AbortSignal): Promise<void> {
  for await (const chunk of body) {
    if (signal.aborted) throw abortError(signal);
    if ((chunk as Buffer).length > 0) {
      body.destroy();
      throw new S3Error('DirectoryObjectContainsData');
    }
  }
}
