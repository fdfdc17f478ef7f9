// Two gateway processes on one posix tree: each keeps directory entries and listed attributes
// between listings (backend-posix src/listing/dir-cache.ts, listed-attrs.ts), validated by the
// tree's own ctime/mtime, so what one gateway writes shows up in the other's next listing.
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import {
  type GatewayProcess,
  killAllChildren,
  makeTempDir,
  ROOT_CREDENTIALS,
  removeDir,
  s3Client,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { md5Hex } from './helpers/files.js';

let root: string;
let a: GatewayProcess;
let b: GatewayProcess;
let ca: S3Client;
let cb: S3Client;
const bucket = 'shared-tree';
/** Longer than the 1 s a change must be old before a listing keeps it. */
const settle = () => new Promise((r) => setTimeout(r, 1300));

beforeAll(async () => {
  root = await makeTempDir();
  a = await startGateway({ root });
  b = await startGateway({ root });
  ca = s3Client(a.url, ROOT_CREDENTIALS);
  cb = s3Client(b.url, ROOT_CREDENTIALS);
  await ca.send(new CreateBucketCommand({ Bucket: bucket }));
});
afterAll(async () => {
  ca?.destroy();
  cb?.destroy();
  await a?.stop();
  await b?.stop();
  killAllChildren();
  if (root) await removeDir(root);
});

async function listing(c: S3Client): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let token: string | undefined;
  do {
    const r = await c.send(
      new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 2, ContinuationToken: token }),
    );
    for (const o of r.Contents ?? []) out[o.Key as string] = `${o.ETag} ${o.Size}`;
    token = r.NextContinuationToken;
  } while (token);
  return out;
}

const entry = (body: string) => `"${md5Hex(Buffer.from(body))}" ${Buffer.byteLength(body)}`;

it("a PUT, an overwrite and a DELETE through one gateway show up in the other's next listing", async () => {
  for (const k of ['d/1', 'd/2', 'd/3', 'e/1'])
    await ca.send(new PutObjectCommand({ Bucket: bucket, Key: k, Body: k }));
  await settle();
  const first = { 'd/1': entry('d/1'), 'd/2': entry('d/2'), 'd/3': entry('d/3'), 'e/1': entry('e/1') };
  expect(await listing(ca)).toEqual(first);
  expect(await listing(ca)).toEqual(first); // a's kept entries and attributes

  await cb.send(new PutObjectCommand({ Bucket: bucket, Key: 'd/4', Body: 'four' }));
  await cb.send(new PutObjectCommand({ Bucket: bucket, Key: 'd/2', Body: 'two, replaced' }));
  await cb.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'e/1' }));
  const second = {
    'd/1': entry('d/1'),
    'd/2': entry('two, replaced'),
    'd/3': entry('d/3'),
    'd/4': entry('four'),
  };
  expect(await listing(ca)).toEqual(second);

  await settle();
  expect(await listing(cb)).toEqual(second);
  expect(await listing(ca)).toEqual(second);
  await ca.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'd/1' }));
  await ca.send(new PutObjectCommand({ Bucket: bucket, Key: 'd/3', Body: 'three again' }));
  const { 'd/1': _, ...third } = { ...second, 'd/3': entry('three again') };
  expect(await listing(cb)).toEqual(third);
}, 60_000);
