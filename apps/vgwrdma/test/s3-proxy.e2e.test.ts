// The built gateway as an s3 PROXY in front of each upstream (backend-s3/upstreams.ts: a second
// gateway on posix, and Ceph RGW), real processes all: the AWS CLI talks to the proxy only, and
// what it writes must land upstream — read back by a plain SDK client on the upstream (ETag, size,
// metadata, bytes), and for the posix gateway also found in its tree. Covers `vgwrdma s3` flags
// (endpoint, upstream keys, path style, meta bucket), the banner, the meta bucket staying hidden,
// puts/gets/lists/ranges/copies/deletes, and a multipart round trip.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { killAllChildren, makeTempDir, removeDir } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetaBucket, type UpstreamGateway } from './backend-s3/upstream-gateway.js';
import { suiteTitle, UPSTREAM_START_TIMEOUT_MS, UPSTREAMS, type Upstream } from './backend-s3/upstreams.js';
import { AWS_BIN, type AwsRunner, awsCli, awsOk, type BucketSteps, bucketSteps } from './helpers/aws-cli.js';
import { type ProxyProcess, startProxyGateway } from './helpers/proxy-process.js';
import { upstreamFlags } from './helpers/upstream-flags.js';

const PROXY_KEYS = { access: 'proxy-access', secret: 'proxy-secret-key' } as const;

function proxySuite(up: Upstream): void {
  const bucket = `via-proxy-${Math.random().toString(36).slice(2, 8)}`;
  let META = '';
  let upstream: UpstreamGateway;
  let proxy: ProxyProcess;
  let work: string;
  let aws: AwsRunner;
  let cli: BucketSteps;

  const ok = (args: readonly string[]): Promise<string> => awsOk(aws, args);

  /** The object as the upstream itself serves it (no proxy in between). */
  async function upstreamObject(key: string) {
    const got = await upstream.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const data = Buffer.from(await got.Body!.transformToByteArray());
    return { data, etag: got.ETag, size: got.ContentLength, metadata: got.Metadata ?? {} };
  }

  async function upstreamHasBucket(name: string): Promise<boolean> {
    return upstream.client.send(new HeadBucketCommand({ Bucket: name })).then(
      () => true,
      () => false,
    );
  }

  beforeAll(async () => {
    work = await makeTempDir('vgwrdma-proxy-');
    upstream = await up.start();
    META = await createMetaBucket(upstream, 'vgw-meta');
    proxy = await startProxyGateway(PROXY_KEYS, upstreamFlags(upstream, META));
    aws = await awsCli({ endpoint: proxy.url, ...PROXY_KEYS, workDir: work });
    cli = bucketSteps(aws, work, bucket);
  }, UPSTREAM_START_TIMEOUT_MS);

  afterAll(async () => {
    await proxy?.stop();
    await upstream?.stop();
    killAllChildren();
    if (work) await removeDir(work);
  });

  it('prints a banner naming the s3 backend, the upstream and the meta bucket', () => {
    expect(proxy.stdout()).toMatch(/^\s*backend:\s+s3 \(key .+, path-style\)$/m);
    expect(proxy.stdout()).toContain(`upstream:   ${upstream.endpoint}`);
    expect(proxy.stdout()).toMatch(new RegExp(`^\\s*meta bucket:\\s*${META}$`, 'm'));
    expect(proxy.stdout()).not.toContain(upstream.secret);
  });

  it('makes a bucket upstream, lists it, and hides the meta bucket', async () => {
    const listed = await cli.makeAndList();
    expect(listed).not.toContain(META);
    expect(await upstreamHasBucket(bucket)).toBe(true);
    // The owner recorded by the proxy, stored as versitygw does.
    await upstream.client.send(new HeadObjectCommand({ Bucket: META, Key: `vgw-meta-acl-${bucket}` }));
    if (upstream.root) expect(existsSync(join(upstream.root, bucket))).toBe(true);
  });

  it('puts, gets, heads, ranges, lists, copies and deletes through the proxy', async () => {
    const body = 'through the proxy and into the upstream\n';
    const head = await cli.cpSmallFile('docs/small.txt', body, ['--metadata', 'origin=proxy,lane=i21']);
    if (upstream.root) {
      expect(await readFile(join(upstream.root, bucket, 'docs', 'small.txt'), 'utf8')).toBe(body);
    }
    expect(head.Metadata).toEqual({ origin: 'proxy', lane: 'i21' });
    // What the upstream itself holds is what the proxy answers.
    const direct = await upstreamObject('docs/small.txt');
    expect(direct.data.toString()).toBe(body);
    expect(direct.etag).toBe(head.ETag);
    expect(direct.size).toBe(head.ContentLength);
    expect(direct.metadata).toEqual(head.Metadata);

    expect(await cli.getRange('docs/small.txt', 'bytes=8-10')).toEqual({
      contentRange: `bytes 8-10/${body.length}`,
      text: 'the',
    });

    await ok(['s3', 'cp', `s3://${bucket}/docs/small.txt`, `s3://${bucket}/docs/copy.txt`]);
    const list = await cli.listPrefix<{ Contents: { Key: string; Size: number }[] }>('docs/');
    expect(list.Contents.map((o) => [o.Key, o.Size])).toEqual([
      ['docs/copy.txt', body.length],
      ['docs/small.txt', body.length],
    ]);
    expect((await upstreamObject('docs/copy.txt')).data.toString()).toBe(body);
    await ok(['s3', 'rm', `s3://${bucket}/docs/copy.txt`]);
    await cli.expectKeyGone('docs/copy.txt');
    const left = await upstream.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'docs/' }));
    expect((left.Contents ?? []).map((o) => o.Key)).toEqual(['docs/small.txt']);
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
    const { head, sent, received } = await cli.cpRoundTrip('big.bin', size);
    expect(head.ContentLength).toBe(size);
    expect(head.ETag).toMatch(/-\d+"$/); // the CLI split it into parts, and the proxy passed them on
    expect(received).toBe(sent);
    const direct = await upstreamObject('big.bin');
    expect(direct.etag).toBe(head.ETag);
    expect(createHash('sha256').update(direct.data).digest('hex')).toBe(sent);
  });

  it('removes the objects and the bucket upstream', async () => {
    await ok(['s3', 'rb', '--force', `s3://${bucket}`]);
    expect(await upstreamHasBucket(bucket)).toBe(false);
    if (upstream.root) expect(existsSync(join(upstream.root, bucket))).toBe(false);
    expect(await ok(['s3', 'ls'])).not.toMatch(new RegExp(`\\s${bucket}$`, 'm'));
  });
}

for (const up of UPSTREAMS) {
  describe.skipIf(AWS_BIN === undefined || up.unavailable !== undefined)(
    `s3 proxy: AWS CLI → vgwrdma s3 → ${suiteTitle(up)}${AWS_BIN === undefined ? ' (skipped: no AWS CLI)' : ''}`,
    { timeout: 180_000 },
    () => proxySuite(up),
  );
}
