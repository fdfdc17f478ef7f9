// One client of the load test: until its deadline it runs a weighted mix of HTTP and RDMA PUT and
// GET, LIST and DELETE on its own prefix, across sizes, and verifies everything it reads: GET
// bytes against the content its key says (object-content.ts), LIST against the keys it knows it
// has. Failures are counted, never thrown, so one bad request does not hide the rest.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { HostMemory } from '@vgwrdma/rdma-ffi';
import { content, fillContent, parseSpecKey, specKey } from './object-content.js';
import { sendWithToken } from './rdma.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Object sizes, each equally likely; RDMA ones are capped by the client's region. */
export const LOAD_SIZES = [KiB, 64 * KiB + 5, MiB, 4 * MiB + 3, 8 * MiB];
export const LOAD_REGION = 8 * MiB;

export type LoadOp = 'http-put' | 'rdma-put' | 'http-get' | 'rdma-get' | 'list' | 'delete';

/** How often each operation is picked (weights). */
const MIX: ReadonlyArray<readonly [LoadOp, number]> = [
  ['http-put', 3],
  ['rdma-put', 3],
  ['http-get', 4],
  ['rdma-get', 4],
  ['list', 1],
  ['delete', 2],
];
const TOTAL_WEIGHT = MIX.reduce((a, [, w]) => a + w, 0);

export interface LoadCounts {
  ops: Record<LoadOp, number>;
  bytesWritten: number;
  bytesRead: number;
  errors: number;
  corruptReads: number;
  /** RDMA requests the gateway declined (501): they would fall back to HTTP. */
  declines: number;
  /** The first few error messages, for the report. */
  samples: string[];
}

export function emptyCounts(): LoadCounts {
  return {
    ops: { 'http-put': 0, 'rdma-put': 0, 'http-get': 0, 'rdma-get': 0, list: 0, delete: 0 },
    bytesWritten: 0,
    bytesRead: 0,
    errors: 0,
    corruptReads: 0,
    declines: 0,
    samples: [],
  };
}

export interface LoadClientOptions {
  readonly id: number;
  readonly sdk: S3Client;
  readonly bucket: string;
  /** This client's registered region (RDMA PUT source and GET destination). */
  readonly region: HostMemory;
  readonly deadline: number;
  readonly counts: LoadCounts;
}

function pickOp(): LoadOp {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const [op, w] of MIX) {
    r -= w;
    if (r < 0) return op;
  }
  return 'list';
}

const randomOf = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)];

export async function runLoadClient(o: LoadClientOptions): Promise<void> {
  const { sdk, bucket: Bucket, region, counts } = o;
  const prefix = `c${o.id}`;
  const keys = new Set<string>();
  let seq = 0;
  const fail = (why: string) => {
    counts.errors++;
    if (counts.samples.length < 10) counts.samples.push(`${prefix}: ${why}`);
  };
  const corrupt = (key: string, why: string) => {
    counts.corruptReads++;
    if (counts.samples.length < 10) counts.samples.push(`${key}: ${why}`);
  };
  const newKey = (rdma: boolean) => {
    const sizes = rdma ? LOAD_SIZES.filter((s) => s <= LOAD_REGION) : LOAD_SIZES;
    return specKey(prefix, String(seq++), { size: randomOf(sizes) ?? KiB });
  };
  const ops: Record<LoadOp, () => Promise<void>> = {
    'http-put': async () => {
      const Key = newKey(false);
      const Body = content(Key, parseSpecKey(Key)?.size ?? 0);
      await sdk.send(new PutObjectCommand({ Bucket, Key, Body }));
      keys.add(Key);
      counts.bytesWritten += Body.length;
    },
    'rdma-put': async () => {
      const Key = newKey(true);
      const size = parseSpecKey(Key)?.size ?? 0;
      fillContent(Key, region.bytes.subarray(0, size));
      const put = await sendWithToken(
        sdk,
        new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0) }),
        region.token(0, size, 'put'),
      ).catch((e: { $metadata?: { httpStatusCode?: number } }) => {
        if (e.$metadata?.httpStatusCode === 501) return undefined;
        throw e;
      });
      if (put === undefined) {
        counts.declines++;
        return;
      }
      if (put.headers['x-amz-rdma-reply'] !== '200') throw new Error(`${Key}: RDMA PUT not confirmed`);
      keys.add(Key);
      counts.bytesWritten += size;
    },
    'http-get': async () => {
      const Key = randomOf([...keys]);
      if (!Key) return;
      const got = await sdk.send(new GetObjectCommand({ Bucket, Key }));
      const body = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
      const size = parseSpecKey(Key)?.size ?? -1;
      if (!body.equals(content(Key, size))) corrupt(Key, `HTTP GET: ${body.length} bytes, not the content`);
      counts.bytesRead += body.length;
    },
    'rdma-get': async () => {
      const Key = randomOf([...keys].filter((k) => (parseSpecKey(k)?.size ?? 0) <= LOAD_REGION));
      if (!Key) return;
      const size = parseSpecKey(Key)?.size ?? 0;
      const got = await sendWithToken<{ Body?: { transformToByteArray(): Promise<Uint8Array> } }>(
        sdk,
        new GetObjectCommand({ Bucket, Key }),
        region.token(0, LOAD_REGION, 'get'),
      );
      let bytes: Uint8Array;
      if (got.headers['x-amz-rdma-reply'] === '501') {
        counts.declines++;
        bytes = (await got.output.Body?.transformToByteArray()) ?? new Uint8Array(0);
      } else {
        if (got.headers['x-amz-rdma-reply'] !== '200') throw new Error(`${Key}: RDMA GET not confirmed`);
        await got.output.Body?.transformToByteArray();
        bytes = region.bytes.subarray(0, Number(got.headers['x-amz-rdma-bytes'] ?? -1));
      }
      if (!Buffer.from(bytes).equals(content(Key, size)))
        corrupt(Key, `RDMA GET: ${bytes.length} bytes, not the content`);
      counts.bytesRead += bytes.length;
    },
    list: async () => {
      const listed = new Set<string>();
      let ContinuationToken: string | undefined;
      do {
        const page = await sdk.send(
          new ListObjectsV2Command({ Bucket, Prefix: `${prefix}/`, ContinuationToken }),
        );
        for (const c of page.Contents ?? []) {
          if (c.Key) listed.add(c.Key);
          if (c.Key && c.Size !== parseSpecKey(c.Key)?.size) corrupt(c.Key, `LIST size ${c.Size}`);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      const missing = [...keys].filter((k) => !listed.has(k));
      const extra = [...listed].filter((k) => !keys.has(k));
      if (missing.length + extra.length > 0)
        corrupt(prefix, `LIST: ${missing.length} missing, ${extra.length} unexpected`);
    },
    delete: async () => {
      const Key = randomOf([...keys]);
      if (!Key) return;
      await sdk.send(new DeleteObjectCommand({ Bucket, Key }));
      keys.delete(Key);
    },
  };
  while (Date.now() < o.deadline) {
    const op = keys.size === 0 ? 'http-put' : pickOp();
    try {
      await ops[op]();
      counts.ops[op]++;
    } catch (e) {
      fail(`${op}: ${(e as Error).name} ${(e as Error).message}`);
    }
  }
}

/**
 * Before the clock starts: every client at once PUTs and GETs a full region by RDMA (outside its
 * own prefix), so that every pool buffer has been used — the pool's pages become resident on
 * first use, which would otherwise read as RSS growth during the run.
 */
export async function primeClient(o: Omit<LoadClientOptions, 'deadline' | 'counts'>): Promise<void> {
  const Key = specKey('prime', `c${o.id}`, { size: LOAD_REGION });
  fillContent(Key, o.region.bytes);
  const put = await sendWithToken(
    o.sdk,
    new PutObjectCommand({ Bucket: o.bucket, Key, Body: new Uint8Array(0) }),
    o.region.token(0, LOAD_REGION, 'put'),
  );
  if (put.headers['x-amz-rdma-reply'] !== '200') throw new Error(`${Key}: prime PUT not confirmed`);
  o.region.bytes.fill(0);
  const get = await sendWithToken<{ Body?: { transformToByteArray(): Promise<Uint8Array> } }>(
    o.sdk,
    new GetObjectCommand({ Bucket: o.bucket, Key }),
    o.region.token(0, LOAD_REGION, 'get'),
  );
  await get.output.Body?.transformToByteArray();
  if (!Buffer.from(o.region.bytes).equals(content(Key, LOAD_REGION)))
    throw new Error(`${Key}: prime GET differs`);
}
