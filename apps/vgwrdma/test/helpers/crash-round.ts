// One round of "kill -9 the gateway in the middle of writes": writers put objects by HTTP, by
// multipart (upload + complete) and by RDMA against a running gateway; once a temp file exists
// in `.sgwtmp` (so a write is certainly mid-way) and a random delay passed, the gateway gets
// SIGKILL. Then the gateway is restarted on the same tree and the round reports what it found:
// the temp files the kill left, those left after the restart, completes that were in flight
// (retried after the restart: they must succeed), and an audit of every visible object.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { HostClient, HostMemory } from '@vgwrdma/rdma-ffi';
import type { GatewayProcess } from '@vgwrdma/test-kit';
import { ROOT_CREDENTIALS, s3Client } from '@vgwrdma/test-kit';
import { type Audit, auditBucket, listKeys } from './object-audit.js';
import { content, fillContent, specKey } from './object-content.js';
import { RDMA_SDK_OPTIONS, sendWithToken } from './rdma.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const HTTP_SIZES = [KiB, 256 * KiB, 3 * MiB + 5, 9 * MiB];
const RDMA_SIZES = [64 * KiB, 8 * MiB, 20 * MiB + 3];
const PART = 5 * MiB;
const MULTIPART_SIZES = [2 * PART + 7, 3 * PART];
const RDMA_REGION = 24 * MiB;

export interface CrashRoundOptions {
  readonly round: number;
  readonly bucket: string;
  /** Starts the gateway (a fresh process on the same tree each time). */
  readonly start: () => Promise<GatewayProcess>;
  /** Client whose agent serves the RDMA writers' regions. */
  readonly client: HostClient;
  readonly httpWriters?: number;
  readonly multipartWriters?: number;
  readonly rdmaWriters?: number;
  /** Upper bound of the random delay before the kill (ms); default 600. */
  readonly maxDelayMs?: number;
}

export interface CrashRoundResult {
  readonly round: number;
  /** What was in flight when the kill came. */
  readonly target: KillTarget;
  /** Writes acknowledged before the kill. */
  readonly acknowledged: number;
  /** Requests that failed before the kill (must be none). */
  readonly errorsBeforeKill: readonly string[];
  readonly tempFilesAfterKill: number;
  readonly tempFilesAfterRestart: number;
  /** Multipart claims the kill left, and after the restart (a dead owner's are given back). */
  readonly claimsAfterKill: number;
  readonly claimsAfterRestart: number;
  readonly completesRetried: number;
  readonly completeRetryFailures: readonly string[];
  /** Every visible object of this round (prefix `r<round>/`), read back and checked. */
  readonly audit: Audit;
  /** The restarted gateway, for the caller to stop or reuse. */
  readonly gateway: GatewayProcess;
}

interface PendingComplete {
  readonly key: string;
  readonly uploadId: string;
  readonly parts: { PartNumber: number; ETag: string }[];
}

/** Longest wait for a write of the round's target to be mid-way (see killWhenMidWrite). */
const MID_WRITE_WAIT_MS = 60_000;
/**
 * Longest wait for one retried complete after the restart: a hang guard (a claim the dead owner
 * left that is never given back), not a speed requirement — a loaded machine assembles a 15 MiB
 * upload slowly.
 */
const COMPLETE_RETRY_LIMIT_MS = 60_000;

/** What a round waits to be in flight before it kills: rounds rotate through these. */
export const KILL_TARGETS = ['http', 'complete', 'rdma'] as const;
export type KillTarget = (typeof KILL_TARGETS)[number];

interface Shared {
  killed: boolean;
  inflight: Record<KillTarget, number>;
  acknowledged: number;
  errors: string[];
  pending: Set<PendingComplete>;
}

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length] as T;

/** Top-level temp files (not the multipart tree) in the bucket's `.sgwtmp`. */
export async function tempFiles(root: string, bucket: string): Promise<string[]> {
  const entries = await readdir(join(root, bucket, '.sgwtmp'), { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => !e.isDirectory()).map((e) => e.name);
}

/** Counts `p` as in flight of `kind` while it runs. */
async function tracked<T>(shared: Shared, kind: KillTarget, p: () => Promise<T>): Promise<T> {
  shared.inflight[kind]++;
  try {
    return await p();
  } finally {
    shared.inflight[kind]--;
  }
}

async function loop(shared: Shared, body: (seq: number) => Promise<void>): Promise<void> {
  for (let seq = 0; !shared.killed; seq++) {
    try {
      await body(seq);
      if (!shared.killed) shared.acknowledged++;
    } catch (e) {
      if (!shared.killed) shared.errors.push(`${(e as Error).name}: ${(e as Error).message}`);
      return;
    }
  }
}

function httpWriter(sdk: S3Client, o: CrashRoundOptions, shared: Shared, id: number) {
  return loop(shared, async (seq) => {
    const size = pick(HTTP_SIZES, seq + id);
    const Key = specKey(`r${o.round}/http`, `${id}-${seq}`, { size });
    const Body = content(Key, size);
    await tracked(shared, 'http', () => sdk.send(new PutObjectCommand({ Bucket: o.bucket, Key, Body })));
  });
}

function multipartWriter(sdk: S3Client, o: CrashRoundOptions, shared: Shared, id: number) {
  return loop(shared, async (seq) => {
    const size = pick(MULTIPART_SIZES, seq + id);
    const Key = specKey(`r${o.round}/mp`, `${id}-${seq}`, { size, partSize: PART });
    const data = content(Key, size);
    const { UploadId } = await sdk.send(new CreateMultipartUploadCommand({ Bucket: o.bucket, Key }));
    if (!UploadId) throw new Error('no UploadId');
    const parts: PendingComplete['parts'] = [];
    for (let off = 0, n = 1; off < size; off += PART, n++) {
      const up = await sdk.send(
        new UploadPartCommand({
          Bucket: o.bucket,
          Key,
          UploadId,
          PartNumber: n,
          Body: data.subarray(off, off + PART),
        }),
      );
      parts.push({ PartNumber: n, ETag: up.ETag ?? '' });
    }
    const pending: PendingComplete = { key: Key, uploadId: UploadId, parts };
    shared.pending.add(pending);
    const complete = new CompleteMultipartUploadCommand({
      Bucket: o.bucket,
      Key,
      UploadId,
      MultipartUpload: { Parts: parts },
    });
    await tracked(shared, 'complete', () => sdk.send(complete));
    shared.pending.delete(pending);
  });
}

function rdmaWriter(sdk: S3Client, o: CrashRoundOptions, shared: Shared, id: number, region: HostMemory) {
  return loop(shared, async (seq) => {
    const size = pick(RDMA_SIZES, seq + id);
    const Key = specKey(`r${o.round}/rdma`, `${id}-${seq}`, { size });
    fillContent(Key, region.bytes.subarray(0, size));
    const put = await tracked(shared, 'rdma', () =>
      sendWithToken(
        sdk,
        new PutObjectCommand({ Bucket: o.bucket, Key, Body: new Uint8Array(0) }),
        region.token(0, size, 'put'),
      ),
    );
    if (put.headers['x-amz-rdma-reply'] !== '200') throw new Error('RDMA PUT not confirmed');
  });
}

/** Multipart claims (`<id>.<etag>.inprogress`): a complete is mid-way while one exists. */
export async function claims(root: string, bucket: string): Promise<string[]> {
  const mp = join(root, bucket, '.sgwtmp', 'multipart');
  const out: string[] = [];
  for (const hash of await readdir(mp).catch(() => [] as string[])) {
    for (const name of await readdir(join(mp, hash)).catch(() => [] as string[]))
      if (name.endsWith('.inprogress')) out.push(name);
  }
  return out;
}

/**
 * Is a write of `target` mid-way right now? PUTs: one is in flight and a temp file exists.
 * A complete is too quick to catch on disk by polling: one in flight is enough, and the kill
 * follows after a random few milliseconds (the claim it leaves, if any, is counted).
 */
async function midWrite(gw: GatewayProcess, bucket: string, shared: Shared, target: KillTarget) {
  if (shared.inflight[target] === 0) return false;
  if (target === 'complete') {
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 8)));
    return true;
  }
  return (await tempFiles(gw.root, bucket)).length > 0;
}

/**
 * Waits (at least a random delay) until a write of `target` is mid-way, then kills the gateway.
 * The wait is for that state, not for a moment; past MID_WRITE_WAIT_MS (far more than an idle
 * machine needs: a loaded one can take seconds to bring a multipart upload to its complete) the
 * kill comes anyway, and the round still audits what it left.
 */
async function killWhenMidWrite(
  gw: GatewayProcess,
  bucket: string,
  maxDelayMs: number,
  shared: Shared,
  target: KillTarget,
): Promise<void> {
  const earliest = Date.now() + Math.floor(Math.random() * maxDelayMs);
  const latest = Date.now() + MID_WRITE_WAIT_MS;
  while (Date.now() < latest) {
    if (Date.now() >= earliest && (await midWrite(gw, bucket, shared, target))) break;
    await new Promise((r) => setTimeout(r, 1));
  }
  shared.killed = true; // from here on a failed request is the kill's doing
  await gw.stop('SIGKILL');
}

/** Runs one round on the already running `gw`; returns the findings and the restarted gateway. */
export async function crashRound(gw: GatewayProcess, o: CrashRoundOptions): Promise<CrashRoundResult> {
  const shared: Shared = {
    killed: false,
    inflight: { http: 0, complete: 0, rdma: 0 },
    acknowledged: 0,
    errors: [],
    pending: new Set(),
  };
  const target = KILL_TARGETS[o.round % KILL_TARGETS.length] ?? 'http';
  const sdk = s3Client(gw.url, ROOT_CREDENTIALS, RDMA_SDK_OPTIONS);
  const regions = Array.from({ length: o.rdmaWriters ?? 2 }, () => o.client.allocate(RDMA_REGION));
  try {
    const writers = [
      ...Array.from({ length: o.httpWriters ?? 2 }, (_, i) => httpWriter(sdk, o, shared, i)),
      ...Array.from({ length: o.multipartWriters ?? 1 }, (_, i) => multipartWriter(sdk, o, shared, i)),
      ...regions.map((r, i) => rdmaWriter(sdk, o, shared, i, r)),
    ];
    await killWhenMidWrite(gw, o.bucket, o.maxDelayMs ?? 600, shared, target);
    await Promise.all(writers);
  } finally {
    sdk.destroy();
    for (const r of regions) r.close();
  }
  const tempFilesAfterKill = (await tempFiles(gw.root, o.bucket)).length;
  const claimsAfterKill = (await claims(gw.root, o.bucket)).length;
  const restarted = await o.start();
  const tempFilesAfterRestart = (await tempFiles(restarted.root, o.bucket)).length;
  const claimsAfterRestart = (await claims(restarted.root, o.bucket)).length;

  const sdk2 = s3Client(restarted.url, ROOT_CREDENTIALS, RDMA_SDK_OPTIONS);
  try {
    const completeRetryFailures: string[] = [];
    for (const p of shared.pending) {
      const retry = sdk2.send(
        new CompleteMultipartUploadCommand({
          Bucket: o.bucket,
          Key: p.key,
          UploadId: p.uploadId,
          MultipartUpload: { Parts: p.parts },
        }),
        { abortSignal: AbortSignal.timeout(COMPLETE_RETRY_LIMIT_MS) },
      );
      await retry.catch((e: Error) => completeRetryFailures.push(`${p.key}: ${e.name} ${e.message}`));
    }
    return {
      round: o.round,
      target,
      acknowledged: shared.acknowledged,
      errorsBeforeKill: shared.errors,
      tempFilesAfterKill,
      tempFilesAfterRestart,
      claimsAfterKill,
      claimsAfterRestart,
      completesRetried: shared.pending.size,
      completeRetryFailures,
      audit: await auditBucket(sdk2, o.bucket, `r${o.round}/`),
      gateway: restarted,
    };
  } finally {
    sdk2.destroy();
  }
}

/** Deletes a round's objects and aborts its unfinished uploads, so long runs keep the disk small. */
export async function clearRound(sdk: S3Client, Bucket: string, round: number): Promise<void> {
  const Prefix = `r${round}/`;
  const keys = await listKeys(sdk, Bucket, Prefix);
  for (let i = 0; i < keys.length; i += 1000) {
    const Objects = keys.slice(i, i + 1000).map((Key) => ({ Key }));
    await sdk.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects } }));
  }
  const uploads = await sdk.send(new ListMultipartUploadsCommand({ Bucket, Prefix }));
  for (const u of uploads.Uploads ?? [])
    await sdk.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
}
