// The sizes that bound a body of unknown length, from the backend's options (defaults filled in,
// the part size checked against S3's limits).
import { tmpdir } from 'node:os';
import { InvalidArgumentError } from '@vgwrdma/errors';
import {
  DEFAULT_SPOOL_MEMORY,
  DEFAULT_UPLOAD_PART_SIZE,
  MAX_UPLOAD_PART_SIZE,
  MIN_UPLOAD_PART_SIZE,
  type S3BackendOptions,
} from '../options.js';
import { Spool } from './spool.js';

export interface SpoolConfig {
  /** The single-PUT threshold and the size of every multipart part but the last. */
  readonly partSize: number;
  readonly memoryBytes: number;
  readonly dir: string;
}

export function spoolConfig(options: S3BackendOptions): SpoolConfig {
  const partSize = options.uploadPartSize ?? DEFAULT_UPLOAD_PART_SIZE;
  if (!Number.isSafeInteger(partSize) || partSize < MIN_UPLOAD_PART_SIZE || partSize > MAX_UPLOAD_PART_SIZE)
    throw new InvalidArgumentError(
      `uploadPartSize must be ${MIN_UPLOAD_PART_SIZE}..${MAX_UPLOAD_PART_SIZE} bytes`,
    );
  const memoryBytes = options.spoolMemory ?? DEFAULT_SPOOL_MEMORY;
  if (!Number.isSafeInteger(memoryBytes) || memoryBytes < 0)
    throw new InvalidArgumentError('spoolMemory must be a whole number of bytes');
  return { partSize, memoryBytes, dir: options.spoolDir ?? tmpdir() };
}

export function newSpool(config: SpoolConfig): Spool {
  return new Spool({ memoryBytes: config.memoryBytes, dir: config.dir });
}
