// The built gateway driven by the AWS CLI (Debian's /usr/bin/aws v2 preferred): `aws s3` and
// `aws s3api` round trips, and a 200 MiB multipart upload and download compared by SHA-256.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AWS_BIN, type AwsRunner, awsOk } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { type BucketSteps, bucketSteps, s3api as s3apiJson } from './helpers/aws-cli.js';

if (AWS_BIN === undefined) {
  console.warn('aws-cli e2e tests skipped: no aws binary (install awscli: apt-get install awscli)');
}

const test = sceneTest();
let work: string;
let aws: AwsRunner;
let cli: BucketSteps;
const bucket = 'cli-bucket';

const ok = (args: readonly string[]): Promise<string> => awsOk(aws, args);

/** `aws s3api ...` as JSON; list calls pass --no-paginate so KeyCount is the raw response's. */
const s3api = <T>(args: readonly string[]): Promise<T> => s3apiJson<T>(aws, args);

// Each `aws` run costs a Python start-up (seconds on a loaded machine): generous timeouts.
describe.skipIf(AWS_BIN === undefined)(`AWS CLI (${AWS_BIN ?? 'none'})`, { timeout: 120_000 }, () => {
  test.beforeAll(({ scene, aws: runner }) => {
    work = scene.dir;
    aws = runner;
    cli = bucketSteps(aws, work, bucket);
  });

  it('is the AWS CLI v2 when Debian installed it', async () => {
    const version = await ok(['--version']);
    if (AWS_BIN === '/usr/bin/aws') expect(version).toMatch(/^aws-cli\/2\./);
    else expect(version).toMatch(/^aws-cli\//);
  });

  it('makes a bucket and lists it', async () => {
    await cli.makeAndList();
  });

  it('puts, lists, gets, heads and ranges an object', async () => {
    const body = 'hello from the aws cli\n';
    await cli.cpSmallFile('docs/small.txt', body);
    expect(await ok(['s3', 'ls', `s3://${bucket}/docs/`])).toMatch(/\s23 small\.txt$/m);
    expect(await cli.getRange('docs/small.txt', 'bytes=6-9')).toEqual({
      contentRange: `bytes 6-9/${body.length}`,
      text: 'from',
    });
    const list = await cli.listPrefix<{ Contents: { Key: string; Size: number }[]; KeyCount: number }>(
      'docs/',
    );
    expect(list.KeyCount).toBe(1);
    expect(list.Contents.map((o) => [o.Key, o.Size])).toEqual([['docs/small.txt', body.length]]);
  });

  it('copies, deletes and multi-deletes', async () => {
    await ok(['s3', 'cp', `s3://${bucket}/docs/small.txt`, `s3://${bucket}/docs/copy.txt`]);
    expect(await ok(['s3', 'cp', `s3://${bucket}/docs/copy.txt`, '-'])).toBe('hello from the aws cli\n');
    await ok(['s3', 'rm', `s3://${bucket}/docs/copy.txt`]);
    await cli.expectKeyGone('docs/copy.txt');

    // One CLI run (each costs a Python start-up) uploads the three objects.
    await mkdir(join(work, 'm'));
    for (const name of ['1', '2', '3']) await writeFile(join(work, 'm', name), name);
    await ok(['s3', 'cp', '--recursive', join(work, 'm'), `s3://${bucket}/m/`]);
    const deleted = await s3api<{ Deleted: { Key: string }[] }>([
      'delete-objects',
      '--bucket',
      bucket,
      '--delete',
      JSON.stringify({ Objects: [{ Key: 'm/1' }, { Key: 'm/2' }] }),
    ]);
    expect(deleted.Deleted.map((d) => d.Key).sort()).toEqual(['m/1', 'm/2']);
    const left = await cli.listPrefix<{ Contents?: { Key: string }[] }>('m/');
    expect(left.Contents?.map((o) => o.Key)).toEqual(['m/3']);
  });

  it('uploads and downloads 200 MiB (multipart) byte for byte', async () => {
    const size = 200 * 1024 * 1024;
    const { head, sent, received } = await cli.cpRoundTrip('big/big.bin', size);
    expect(head.ContentLength).toBe(size);
    // The CLI splits files over 8 MiB into 8 MiB parts: a multipart ETag ends in -<parts>.
    expect(head.ETag).toMatch(/^"[0-9a-f]{32}-25"$/);
    expect(received).toBe(sent);
  }, 120_000);

  it('removes everything with s3 rm --recursive', async () => {
    await mkdir(join(work, 'tree/sub'), { recursive: true });
    await writeFile(join(work, 'tree/a.txt'), 'a');
    await writeFile(join(work, 'tree/sub/b.txt'), 'b');
    await ok(['s3', 'cp', '--recursive', join(work, 'tree'), `s3://${bucket}/tree/`]);
    expect(await ok(['s3', 'ls', '--recursive', `s3://${bucket}/tree/`])).toMatch(/tree\/sub\/b\.txt/);
    await ok(['s3', 'rm', '--recursive', `s3://${bucket}/`]);
    const list = await s3api<{ KeyCount: number }>(['list-objects-v2', '--no-paginate', '--bucket', bucket]);
    expect(list.KeyCount).toBe(0);
    await ok(['s3', 'rb', `s3://${bucket}`]);
    expect(await ok(['s3', 'ls'])).not.toContain(bucket);
  });
});
