// One client of the failover test: through the balancer it uploads its quota of objects — HTTP
// PUTs, RDMA PUTs and multipart uploads whose parts alternate RDMA and HTTP — retrying each
// request that fails (a gateway killed under it answers 502 through haproxy, or resets the
// connection) until it succeeds. Keys say their size (object-content.ts), so whatever RGW holds
// afterwards can be checked byte for byte without a copy.
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { HostMemory } from '@vgwrdma/rdma-ffi';
import { content, fillContent, specKey } from './object-content.js';
import { sendWithToken } from './rdma.js';

const MiB = 1024 * 1024;
export const REGION_BYTES = 8 * MiB;
const PART = 5 * MiB;

export interface UploadTally {
  /** Keys whose upload the client saw succeed. */
  readonly acknowledged: string[];
  /** Keys whose CreateMultipartUpload failed at least once (its upload id never reached us). */
  readonly createFailed: Set<string>;
  retries: number;
  /** Requests that still failed after every attempt. */
  failures: string[];
}

export const emptyTally = (): UploadTally => ({
  acknowledged: [],
  createFailed: new Set(),
  retries: 0,
  failures: [],
});

const ATTEMPTS = 8;

async function retrying<T>(tally: UploadTally, what: string, send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      if (attempt >= ATTEMPTS) throw new Error(`${what}: ${(e as Error).name} ${(e as Error).message}`);
      tally.retries++;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

function rdmaConfirmed(reply: { headers: Record<string, string> }, what: string): void {
  if (reply.headers['x-amz-rdma-reply'] !== '200') throw new Error(`${what}: RDMA not confirmed`);
}

export interface UploadClientOptions {
  readonly id: number;
  readonly sdk: S3Client;
  readonly bucket: string;
  readonly region: HostMemory;
  readonly quota: number;
  readonly tally: UploadTally;
  /** Called after each acknowledged upload (the test kills a gateway part-way). */
  readonly onAck?: () => void;
}

export async function runUploadClient(o: UploadClientOptions): Promise<void> {
  const { sdk, bucket: Bucket, region, tally } = o;
  const kinds = ['http', 'rdma', 'multipart'] as const;
  for (let n = 0; n < o.quota; n++) {
    const kind = kinds[(n + o.id) % kinds.length] as (typeof kinds)[number];
    const size = kind === 'http' ? 4 * MiB + 3 : kind === 'rdma' ? REGION_BYTES : 2 * PART + 777;
    const Key = specKey(`c${o.id}`, `${kind}-${n}`, {
      size,
      ...(kind === 'multipart' ? { partSize: PART } : {}),
    });
    try {
      if (kind === 'http') {
        const Body = content(Key, size);
        await retrying(tally, Key, () => sdk.send(new PutObjectCommand({ Bucket, Key, Body })));
      } else if (kind === 'rdma') {
        fillContent(Key, region.bytes.subarray(0, size));
        await retrying(tally, Key, async () =>
          rdmaConfirmed(
            await sendWithToken(
              sdk,
              new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0) }),
              region.token(0, size, 'put'),
            ),
            Key,
          ),
        );
      } else {
        await multipart(o, Key, size);
      }
      tally.acknowledged.push(Key);
      o.onAck?.();
    } catch (e) {
      tally.failures.push((e as Error).message);
    }
  }
}

async function multipart(o: UploadClientOptions, Key: string, size: number): Promise<void> {
  const { sdk, bucket: Bucket, region, tally } = o;
  const whole = content(Key, size);
  const UploadId = await retrying(tally, `${Key} create`, async () => {
    try {
      return (await sdk.send(new CreateMultipartUploadCommand({ Bucket, Key }))).UploadId as string;
    } catch (e) {
      tally.createFailed.add(Key);
      throw e;
    }
  });
  const Parts: { PartNumber: number; ETag?: string | undefined }[] = [];
  for (let PartNumber = 1; PartNumber * PART - PART < size; PartNumber++) {
    const bytes = whole.subarray((PartNumber - 1) * PART, Math.min(size, PartNumber * PART));
    const ETag = await retrying(tally, `${Key} part ${PartNumber}`, async () => {
      if (PartNumber % 2 === 1) {
        region.bytes.set(bytes);
        const r = await sendWithToken<{ ETag?: string }>(
          sdk,
          new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: new Uint8Array(0) }),
          region.token(0, bytes.length, 'put'),
        );
        rdmaConfirmed(r, `${Key} part ${PartNumber}`);
        return r.output.ETag;
      }
      return (await sdk.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: bytes }))).ETag;
    });
    Parts.push({ PartNumber, ETag });
  }
  let sent = false;
  await retrying(tally, `${Key} complete`, async () => {
    try {
      await sdk.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }),
      );
    } catch (e) {
      // A retried Complete whose first attempt went through upstream before the gateway died
      // finds no upload any more: then the object must be there, whole (checked by the test).
      if (sent && (e as Error).name === 'NoSuchUpload') {
        await sdk.send(new HeadObjectCommand({ Bucket, Key }));
        return;
      }
      sent = true;
      throw e;
    }
  });
}
