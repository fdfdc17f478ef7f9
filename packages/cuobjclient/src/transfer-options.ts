// TransferManager's options checked once at the edge, with their defaults, and the part plan of an
// object: how many parts of which size (S3: at most 10,000 parts, at least 5 MiB except the last;
// here also at most one token's capacity, 4 GiB − 64 KiB, since each part is one RDMA request).

import { availableParallelism } from 'node:os';
import { TOKEN_CAPACITY } from '@vgwrdma/rdma-protocol';
import { CuObjError } from './errors.js';
import type { ManagedChecksum, TransferManagerOptions } from './transfer-types.js';

const MiB = 2 ** 20;

/** S3's smallest part (all but the last). */
export const MIN_PART_SIZE = 5 * MiB;
/** S3's most parts in one upload. */
export const MAX_PARTS = 10_000;
/** S3's largest object. */
export const MAX_OBJECT_SIZE = 5 * 2 ** 40;
/**
 * Default part size, measured on a 2-core host over softnic (README "TransferManager", the
 * table of part sizes): large enough that the per-request cost (HTTP, signing, one MD5 per part
 * at the gateway) is small, small enough that `concurrency` parts of it stay modest in memory.
 */
export const DEFAULT_PART_SIZE = 64 * MiB;
/**
 * Default parts in flight on a host of `cores` cores: one per core, at least 4 and at most 8. Measured
 * (README "Part size and parts in flight"): four keep a 2-core host busy; on a 16-core host a 4 GiB
 * managed transfer in host memory ran 1.7× faster up and 1.5× down at 8 than at 4, and no faster
 * at 16 (which registers twice the memory: concurrency × partSize per memory kind).
 */
export function defaultConcurrency(cores: number = availableParallelism()): number {
  return Math.min(8, Math.max(4, Math.floor(cores)));
}
/** Default parts in flight on this host (defaultConcurrency() when the module loaded). */
export const DEFAULT_CONCURRENCY = defaultConcurrency();

export interface ResolvedOptions {
  readonly partSize: number;
  readonly concurrency: number;
  readonly multipartThreshold: number;
  readonly maxRetries: number;
  readonly declineRetries: number;
  readonly backoffMs: number;
  readonly fallback: 'none' | 'http';
  readonly checksum: ManagedChecksum | undefined;
}

function invalid(message: string): CuObjError {
  return new CuObjError('VGW_ERR_CUOBJ_INVALID_OPTION', message);
}

function intIn(name: string, v: number | undefined, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt;
  if (!Number.isSafeInteger(v) || v < min || v > max)
    throw invalid(`${name} must be an integer in ${min}..${max}, got ${v}`);
  return v;
}

/** Throws VGW_ERR_CUOBJ_INVALID_OPTION for a bad checksum choice. */
export function checkChecksum(c: ManagedChecksum | undefined, what = 'checksum'): void {
  if (c === undefined) return;
  if (!['crc32', 'crc32c', 'crc64nvme'].includes(c.algorithm))
    throw invalid(`${what}.algorithm must be 'crc32', 'crc32c' or 'crc64nvme', got ${String(c.algorithm)}`);
  const type = c.type ?? 'FULL_OBJECT';
  if (type !== 'FULL_OBJECT' && type !== 'COMPOSITE')
    throw invalid(`${what}.type must be 'FULL_OBJECT' or 'COMPOSITE', got ${String(type)}`);
  if (type === 'COMPOSITE' && c.algorithm === 'crc64nvme')
    throw invalid(`${what}: crc64nvme has no COMPOSITE type in S3 (use FULL_OBJECT)`);
}

export function resolveOptions(o: TransferManagerOptions): ResolvedOptions {
  if (o === null || typeof o !== 'object' || o.client === undefined)
    throw invalid('TransferManager needs { client: S3Client }');
  const partSize = intIn('partSize', o.partSize, DEFAULT_PART_SIZE, MIN_PART_SIZE, TOKEN_CAPACITY);
  const fallback = o.fallback ?? 'none';
  if (fallback !== 'none' && fallback !== 'http')
    throw invalid(`fallback must be 'none' or 'http', got ${String(fallback)}`);
  checkChecksum(o.checksum);
  return {
    partSize,
    concurrency: intIn('concurrency', o.concurrency, DEFAULT_CONCURRENCY, 1, 64),
    // A single PUT uses a pooled session of partSize, so the threshold is at most that.
    multipartThreshold: intIn('multipartThreshold', o.multipartThreshold, partSize, 1, partSize),
    maxRetries: intIn('maxRetries', o.maxRetries, 3, 0, 100),
    declineRetries: intIn('declineRetries', o.declineRetries, 5, 0, 100),
    backoffMs: intIn('backoffMs', o.backoffMs, 50, 0, 60_000),
    fallback,
    checksum: o.checksum,
  };
}

/** One part: its 1-based number, where it starts in the object and how long it is. */
export interface PartSpan {
  readonly number: number;
  readonly offset: number;
  readonly length: number;
}

/** The part size an object of `size` bytes needs: `partSize`, raised to fit in 10,000 parts. */
export function partSizeFor(size: number, partSize: number): number {
  if (Math.ceil(size / partSize) <= MAX_PARTS) return partSize;
  const raised = Math.ceil(size / MAX_PARTS / MiB) * MiB;
  if (raised > TOKEN_CAPACITY)
    throw invalid(`an object of ${size} bytes needs parts above the token capacity ${TOKEN_CAPACITY}`);
  return raised;
}

/** The spans of [0, size) in parts of `partSize` (the last one shorter); none for size 0. */
export function planParts(size: number, partSize: number): PartSpan[] {
  const spans: PartSpan[] = [];
  for (let offset = 0, n = 1; offset < size; offset += partSize, n++)
    spans.push({ number: n, offset, length: Math.min(partSize, size - offset) });
  return spans;
}
