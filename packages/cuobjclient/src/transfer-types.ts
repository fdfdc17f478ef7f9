// The public vocabulary of TransferManager (managed multipart RDMA transfers): its options, what
// an upload reads from and a download writes to, the progress it reports and what it returns.
// Sources and destinations come in three shapes — host bytes, GPU memory the caller owns, and a
// reader / writer called per part (for objects larger than one Uint8Array, files, generated data).

import type { S3Client } from '@aws-sdk/client-s3';
import type { HostClientOptions } from '@vgwrdma/rdma-ffi';

/** Checksum algorithms a managed upload can send (x-amz-checksum-<algo> on every part). */
export type ManagedChecksumAlgorithm = 'crc32' | 'crc32c' | 'crc64nvme';

/**
 * How the object's checksum is formed (S3's x-amz-checksum-type): 'FULL_OBJECT' — one CRC over
 * the whole object (combined from the parts' CRCs, verified again by the gateway at Complete, and
 * by a download); 'COMPOSITE' — the CRC of the parts' CRCs, `<base64>-<N>` (not for crc64nvme).
 */
export type ManagedChecksumType = 'FULL_OBJECT' | 'COMPOSITE';

export interface ManagedChecksum {
  readonly algorithm: ManagedChecksumAlgorithm;
  /** Default 'FULL_OBJECT'. */
  readonly type?: ManagedChecksumType;
}

/** GPU memory the caller owns (a cudaMalloc'd device pointer): `size` bytes at `devicePtr`. */
export interface DeviceMemoryRef {
  readonly memory: 'cuda';
  readonly devicePtr: bigint;
  /** Bytes: an upload's object size; a download's capacity. */
  readonly size: number;
}

/**
 * An upload source read part by part: `read(offset, into)` fills `into` (the part's registered
 * buffer, no copy) with the object's bytes [offset, offset + into.length). It may be called
 * again for the same part (a retry) and concurrently for different parts.
 */
export interface SourceReader {
  readonly size: number;
  read(offset: number, into: Uint8Array): void | Promise<void>;
}

/**
 * A download destination written part by part: `write(offset, bytes)` receives the object's
 * bytes [offset, offset + bytes.length) (a view of the registered buffer, valid only during the
 * call: copy what you keep). Concurrent for different parts; a retried part is written again.
 */
export interface DestinationWriter {
  /** The most bytes it takes; a larger object is refused before any byte moves. */
  readonly capacity: number;
  write(offset: number, bytes: Uint8Array): void | Promise<void>;
}

export type UploadSource = Uint8Array | DeviceMemoryRef | SourceReader;
export type DownloadDestination = Uint8Array | DeviceMemoryRef | DestinationWriter;

/** Reported after each part (monotonic; the last report has bytesDone === totalBytes). */
export interface TransferProgress {
  readonly bytesDone: number;
  readonly totalBytes: number;
  readonly partsDone: number;
  readonly totalParts: number;
}

export interface TransferManagerOptions {
  /** The S3 client every request goes through (never modified: the RDMA headers are per command). */
  readonly client: S3Client;
  /**
   * Bytes per part (and per pooled session); default DEFAULT_PART_SIZE. At least 5 MiB, at most
   * 4 GiB − 64 KiB (the token capacity). Raised for an object that would need more than 10,000
   * parts (to the next MiB above size / 10,000).
   */
  readonly partSize?: number;
  /** Parts in flight at once (= sessions in the pool per memory kind); default DEFAULT_CONCURRENCY. */
  readonly concurrency?: number;
  /** Objects up to this size go as one RDMA PutObject; default and most: partSize. */
  readonly multipartThreshold?: number;
  /** Retries of a part that failed (network, 5xx, timeout), after the first try; default 3. */
  readonly maxRetries?: number;
  /** Retries, with backoff, of a part the gateway declined (501, e.g. its pool busy); default 5. */
  readonly declineRetries?: number;
  /** First backoff in ms (doubled each time, with jitter, capped at 2 s); default 50. */
  readonly backoffMs?: number;
  /**
   * 'http': a part still declined after its declineRetries moves in the HTTP body instead (as a
   * Session's fallback). 'none' (default): that part fails.
   */
  readonly fallback?: 'none' | 'http';
  /** Default checksum of uploads (and what downloads verify); none unless given. */
  readonly checksum?: ManagedChecksum;
  /** 'cuda' sessions (sources/destinations in GPU memory): device ordinal (0). */
  readonly device?: number;
  /** 'cuda' sessions: the CUDA runtime to load. */
  readonly cudaLibrary?: string;
  /** Transport settings of the pooled sessions (win over the environment). */
  readonly host?: Omit<HostClientOptions, 'shimDir'>;
  readonly shimDir?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

interface TransferRequestBase {
  readonly bucket: string;
  readonly key: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: TransferProgress) => void;
}

export interface UploadRequest extends TransferRequestBase {
  readonly source: UploadSource;
  /** Overrides the manager's checksum for this upload; null: none. */
  readonly checksum?: ManagedChecksum | null;
  readonly contentType?: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

export interface DownloadRequest extends TransferRequestBase {
  readonly destination: DownloadDestination;
  /**
   * Verify the object's full-object checksum of this algorithm (when the object has one) over
   * the bytes received; default: the manager's checksum algorithm. null: no check.
   */
  readonly checksum?: ManagedChecksumAlgorithm | null;
}

interface TransferOutcomeBase {
  /** Bytes of the object. */
  readonly bytes: number;
  readonly etag: string | undefined;
  /** Requests that moved data (parts, or ranges; 1 for a single PUT/GET, 0 for an empty object). */
  readonly parts: number;
  /** Retries over all parts (failures and declines retried). */
  readonly retries: number;
  /** Parts that went by the HTTP body (fallback: 'http'). */
  readonly httpParts: number;
  /** The most parts that were in flight at once. */
  readonly maxInFlight: number;
  /** Wall time of the transfer in ms (the session pool's opening included on first use). */
  readonly ms: number;
}

export interface UploadResult extends TransferOutcomeBase {
  /** 'multipart' (CreateMultipartUpload + UploadParts + Complete) or 'single' (one PutObject). */
  readonly method: 'multipart' | 'single';
  /** The object's checksum as the gateway stored it (when one was sent), e.g. { crc32c: 'AbC=' }. */
  readonly checksum: { readonly algorithm: ManagedChecksumAlgorithm; readonly value: string } | undefined;
}

export interface DownloadResult extends TransferOutcomeBase {
  /** Whether a full-object checksum was checked over the received bytes. */
  readonly checksumVerified: boolean;
}
