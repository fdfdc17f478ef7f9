// The built gateway as an s3 PROXY in front of a second gateway (posix), both real processes:
// the AWS CLI talks to the proxy only, and the bytes must land in the posix gateway's tree.
// Covers `vgwrdma s3` flags (endpoint, upstream keys, path style, meta bucket), the banner, the
// meta bucket staying hidden, puts/gets/lists/ranges/copies/deletes, and a multipart round trip.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import {
  type GatewayProcess,
  killAllChildren,
  makeTempDir,
  ROOT_CREDENTIALS,
  removeDir,
  s3Client,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWS_BIN, type AwsRunner, awsCli } from './helpers/aws-cli.js';
import { md5Hex, sha256File, writeRandomFile } from './helpers/files.js';
import { type ProxyProcess, startProxyGateway } from './helpers/proxy-process.js';

const PROXY_KEYS = { access: 'proxy-access', secret: 'proxy-secret-key' } as const;
const META = 'vgw-meta';
const bucket = 'via-proxy';

let upstream: GatewayProcess;
let proxy: ProxyProcess;
let work: string;
let aws: AwsRunner;

async function ok(args: readonly string[]): Promise<string> {
  const result = await aws(args);
  if (result.code !== 0) throw new Error(`aws ${args.join(' ')} exited ${result.code}:\n${result.stderr}`);
  return result.stdout;
}

async function s3api<T>(args: readonly string[]): Promise<T> {
  return JSON.parse(await ok(['s3api', ...args, '--output', 'json'])) as T;
}

describe.skipIf(AWS_BIN === undefined)(
  's3 proxy: AWS CLI → vgwrdma s3 → vgwrdma posix',
  { timeout: 180_000 },
  () => {
    beforeAll(async () => {
      work = await makeTempDir('vgwrdma-proxy-');
      upstream = await startGateway();
      const admin = s3Client(upstream.url, ROOT_CREDENTIALS);
      await admin.send(new CreateBucketCommand({ Bucket: META }));
      admin.destroy();
      proxy = await startProxyGateway(PROXY_KEYS, [
        '--endpoint',
        upstream.url,
        '--access',
        ROOT_CREDENTIALS.access,
        '--secret',
        ROOT_CREDENTIALS.secret,
        '--use-path-style',
        '--meta-bucket',
        META,
      ]);
      aws = await awsCli({ endpoint: proxy.url, ...PROXY_KEYS, workDir: work });
    });

    afterAll(async () => {
      await proxy?.stop();
      await upstream?.stop();
      killAllChildren();
      if (upstream) await removeDir(upstream.root);
      if (work) await removeDir(work);
    });

    it('prints a banner naming the s3 backend, the upstream and the meta bucket', () => {
      expect(proxy.stdout()).toMatch(/^\s*backend:\s+s3 \(key .+, path-style\)$/m);
      expect(proxy.stdout()).toContain(`upstream:   ${upstream.url}`);
      expect(proxy.stdout()).toMatch(new RegExp(`^\\s*meta bucket:\\s*${META}$`, 'm'));
      expect(proxy.stdout()).not.toContain(ROOT_CREDENTIALS.secret);
    });

    it('makes a bucket upstream, lists it, and hides the meta bucket', async () => {
      expect(await ok(['s3', 'mb', `s3://${bucket}`])).toContain(`make_bucket: ${bucket}`);
      const listed = await ok(['s3', 'ls']);
      expect(listed).toMatch(new RegExp(`\\s${bucket}$`, 'm'));
      expect(listed).not.toContain(META);
      expect(existsSync(join(upstream.root, bucket))).toBe(true);
      // The owner recorded by the proxy, stored as versitygw does.
      expect(existsSync(join(upstream.root, META, `vgw-meta-acl-${bucket}`))).toBe(true);
    });

    it('puts, gets, heads, ranges, lists, copies and deletes through the proxy', async () => {
      const local = join(work, 'small.txt');
      const body = 'through the proxy and into posix\n';
      await writeFile(local, body);
      await ok(['s3', 'cp', local, `s3://${bucket}/docs/small.txt`]);
      expect(await readFile(join(upstream.root, bucket, 'docs', 'small.txt'), 'utf8')).toBe(body);
      expect(await ok(['s3', 'cp', `s3://${bucket}/docs/small.txt`, '-'])).toBe(body);

      const head = await s3api<{ ContentLength: number; ETag: string }>([
        'head-object',
        '--bucket',
        bucket,
        '--key',
        'docs/small.txt',
      ]);
      expect(head.ContentLength).toBe(body.length);
      expect(head.ETag).toBe(`"${md5Hex(body)}"`);

      const ranged = join(work, 'ranged.out');
      const range = await s3api<{ ContentRange: string }>([
        'get-object',
        '--bucket',
        bucket,
        '--key',
        'docs/small.txt',
        '--range',
        'bytes=8-10',
        ranged,
      ]);
      expect(range.ContentRange).toBe(`bytes 8-10/${body.length}`);
      expect(await readFile(ranged, 'utf8')).toBe('the');

      await ok(['s3', 'cp', `s3://${bucket}/docs/small.txt`, `s3://${bucket}/docs/copy.txt`]);
      const list = await s3api<{ Contents: { Key: string; Size: number }[] }>([
        'list-objects-v2',
        '--no-paginate',
        '--bucket',
        bucket,
        '--prefix',
        'docs/',
      ]);
      expect(list.Contents.map((o) => [o.Key, o.Size])).toEqual([
        ['docs/copy.txt', body.length],
        ['docs/small.txt', body.length],
      ]);
      await ok(['s3', 'rm', `s3://${bucket}/docs/copy.txt`]);
      const gone = await aws(['s3api', 'head-object', '--bucket', bucket, '--key', 'docs/copy.txt']);
      expect(gone.code).not.toBe(0);
      expect(gone.stderr).toMatch(/404|Not Found/);
      expect(existsSync(join(upstream.root, bucket, 'docs', 'copy.txt'))).toBe(false);
    });

    it('answers the upstream errors as S3 errors (NoSuchKey, NoSuchBucket, BucketNotEmpty)', async () => {
      const missingKey = await aws([
        's3api',
        'get-object',
        '--bucket',
        bucket,
        '--key',
        'nope',
        join(work, 'x'),
      ]);
      expect(missingKey.stderr).toContain('NoSuchKey');
      const missingBucket = await aws(['s3api', 'list-objects-v2', '--bucket', 'no-such-bucket-here']);
      expect(missingBucket.stderr).toContain('NoSuchBucket');
      const notEmpty = await aws(['s3api', 'delete-bucket', '--bucket', bucket]);
      expect(notEmpty.stderr).toContain('BucketNotEmpty');
    });

    it('uploads and downloads 40 MiB (multipart through the proxy) byte for byte', async () => {
      const size = 40 * 1024 * 1024;
      const up = join(work, 'big.bin');
      const down = join(work, 'big.out');
      await writeRandomFile(up, size);
      await ok(['s3', 'cp', up, `s3://${bucket}/big.bin`]);
      const head = await s3api<{ ContentLength: number; ETag: string }>([
        'head-object',
        '--bucket',
        bucket,
        '--key',
        'big.bin',
      ]);
      expect(head.ContentLength).toBe(size);
      expect(head.ETag).toMatch(/-\d+"$/); // the CLI split it into parts, and the proxy passed them on
      await ok(['s3', 'cp', `s3://${bucket}/big.bin`, down]);
      const digest = await sha256File(up);
      expect(await sha256File(down)).toBe(digest);
      expect(await sha256File(join(upstream.root, bucket, 'big.bin'))).toBe(digest);
    });

    it('removes the objects and the bucket upstream', async () => {
      await ok(['s3', 'rb', '--force', `s3://${bucket}`]);
      expect(existsSync(join(upstream.root, bucket))).toBe(false);
      expect(await ok(['s3', 'ls'])).not.toMatch(new RegExp(`\\s${bucket}$`, 'm'));
    });
  },
);
