// The AWS CLI runner lives in the test kit (the scene's `aws` fixture uses it); this module keeps
// the app tests' old import path working and adds the steps the CLI suites share (posix, s3
// proxy, azure): make and list a bucket, a small file's round trip with its head, a ranged get,
// a prefix listing, a key that is gone, and a multipart round trip.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AwsRunner, awsOk } from '@vgwrdma/test-kit';
import { expect } from 'vitest';
import { md5Hex, sha256File, writeRandomFile } from './files.js';

export { AWS_BIN, type AwsOptions, type AwsRunner, awsCli, awsOk, type CliResult } from '@vgwrdma/test-kit';

/** `aws s3api <args> --output json`, parsed. */
export async function s3api<T>(aws: AwsRunner, args: readonly string[]): Promise<T> {
  return JSON.parse(await awsOk(aws, ['s3api', ...args, '--output', 'json'])) as T;
}

export interface RoundTrip {
  /** head-object's answer for the uploaded object. */
  readonly head: { ContentLength: number; ETag: string };
  /** SHA-256 of the file sent and of the file read back. */
  readonly sent: string;
  readonly received: string;
}

/**
 * `aws s3 cp` of a random file of `size` bytes (in `work`) to s3://bucket/key — a multipart upload
 * past the CLI's 8 MiB threshold — then head-object, then `aws s3 cp` back down.
 */
export async function cpRoundTrip(
  aws: AwsRunner,
  work: string,
  bucket: string,
  key: string,
  size: number,
): Promise<RoundTrip> {
  const up = join(work, 'big.bin');
  const down = join(work, 'big.down');
  await writeRandomFile(up, size);
  await awsOk(aws, ['s3', 'cp', up, `s3://${bucket}/${key}`]);
  const head = await s3api<RoundTrip['head']>(aws, ['head-object', '--bucket', bucket, '--key', key]);
  await awsOk(aws, ['s3', 'cp', `s3://${bucket}/${key}`, down]);
  return { head, sent: await sha256File(up), received: await sha256File(down) };
}

/** `aws s3 mb s3://bucket` (it says make_bucket), then `aws s3 ls`, which lists it: the listing. */
async function makeAndListBucket(aws: AwsRunner, bucket: string): Promise<string> {
  expect(await awsOk(aws, ['s3', 'mb', `s3://${bucket}`])).toContain(`make_bucket: ${bucket}`);
  const listed = await awsOk(aws, ['s3', 'ls']);
  expect(listed).toMatch(new RegExp(`\\s${bucket}$`, 'm'));
  return listed;
}

export interface SmallHead {
  readonly ContentLength: number;
  readonly ETag: string;
  readonly Metadata?: Record<string, string>;
}

/**
 * `body` written to `work`/small.txt and `aws s3 cp`'d to s3://bucket/key (with `cpArgs`), read
 * back with `aws s3 cp … -`, then head-object: the same bytes, its length and its MD5 ETag.
 * Returns head-object's answer (with the metadata, for the caller's checks).
 */
async function cpSmallFile(
  aws: AwsRunner,
  work: string,
  bucket: string,
  key: string,
  body: string,
  cpArgs: readonly string[] = [],
): Promise<SmallHead> {
  const local = join(work, 'small.txt');
  await writeFile(local, body);
  await awsOk(aws, ['s3', 'cp', local, `s3://${bucket}/${key}`, ...cpArgs]);
  expect(await awsOk(aws, ['s3', 'cp', `s3://${bucket}/${key}`, '-'])).toBe(body);
  const head = await s3api<SmallHead>(aws, ['head-object', '--bucket', bucket, '--key', key]);
  expect(head.ContentLength).toBe(body.length);
  expect(head.ETag).toBe(`"${md5Hex(body)}"`);
  return head;
}

/** `aws s3api get-object --range` into a file in `work`: the ContentRange answered and the bytes. */
async function getRange(
  aws: AwsRunner,
  work: string,
  bucket: string,
  key: string,
  range: string,
): Promise<{ contentRange: string; text: string }> {
  const out = join(work, 'ranged.out');
  const got = await s3api<{ ContentRange: string }>(aws, [
    'get-object',
    '--bucket',
    bucket,
    '--key',
    key,
    '--range',
    range,
    out,
  ]);
  return { contentRange: got.ContentRange, text: await readFile(out, 'utf8') };
}

/** `aws s3api list-objects-v2 --no-paginate` (KeyCount is the raw response's) under `prefix`. */
function listPrefix<T>(aws: AwsRunner, bucket: string, prefix: string): Promise<T> {
  return s3api<T>(aws, ['list-objects-v2', '--no-paginate', '--bucket', bucket, '--prefix', prefix]);
}

/** head-object of `key` fails, with a 404. */
async function expectKeyGone(aws: AwsRunner, bucket: string, key: string): Promise<void> {
  const gone = await aws(['s3api', 'head-object', '--bucket', bucket, '--key', key]);
  expect(gone.code).not.toBe(0);
  expect(gone.stderr).toMatch(/404|Not Found/);
}

/** The steps above on one bucket, with one runner and one work folder. */
export interface BucketSteps {
  /** mb, then ls lists it: the listing. */
  makeAndList(): Promise<string>;
  /** A small file up, back down and headed (length, MD5 ETag): the head. */
  cpSmallFile(key: string, body: string, cpArgs?: readonly string[]): Promise<SmallHead>;
  /** A ranged get-object: ContentRange and the bytes. */
  getRange(key: string, range: string): Promise<{ contentRange: string; text: string }>;
  /** list-objects-v2 --no-paginate under `prefix`. */
  listPrefix<T>(prefix: string): Promise<T>;
  /** head-object of `key` fails with a 404. */
  expectKeyGone(key: string): Promise<void>;
  /** cp of `size` random bytes up (multipart past 8 MiB), head, cp down. */
  cpRoundTrip(key: string, size: number): Promise<RoundTrip>;
}

export function bucketSteps(aws: AwsRunner, work: string, bucket: string): BucketSteps {
  return {
    makeAndList: () => makeAndListBucket(aws, bucket),
    cpSmallFile: (key, body, cpArgs) => cpSmallFile(aws, work, bucket, key, body, cpArgs),
    getRange: (key, range) => getRange(aws, work, bucket, key, range),
    listPrefix: (prefix) => listPrefix(aws, bucket, prefix),
    expectKeyGone: (key) => expectKeyGone(aws, bucket, key),
    cpRoundTrip: (key, size) => cpRoundTrip(aws, work, bucket, key, size),
  };
}
