// Two gateway processes on one posix tree: each keeps directory entries and listed attributes
// between listings (backend-posix src/listing/dir-cache.ts, listed-attrs.ts), validated by the
// tree's own ctime/mtime, so what one gateway writes shows up in the other's next listing.
import {
  DeleteObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { scenePool, sceneTest } from '@vgwrdma/test-kit/scene';
import { expect } from 'vitest';
import { md5Hex } from './helpers/files.js';

const bucket = 'shared-tree';
/** Gateway a; gateway b (the twin) serves a's root. */
const test = sceneTest({ buckets: [bucket] });
const startTwin = scenePool();
/** Longer than the 1 s a change must be old before a listing keeps it. */
const settle = () => new Promise((r) => setTimeout(r, 1300));

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

test("a PUT, an overwrite and a DELETE through one gateway show up in the other's next listing", async ({
  scene,
  s3: ca,
}) => {
  const cb = (await startTwin({ root: scene.root })).s3;
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
