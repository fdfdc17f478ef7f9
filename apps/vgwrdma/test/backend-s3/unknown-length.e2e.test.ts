// Bodies of unknown length through `vgwrdma s3` (the built app) to a real upstream: a chunked PUT
// (Transfer-Encoding: chunked, no Content-Length), the AWS CLI uploading from stdin (aws-chunked
// with a checksum trailer, no decoded length) and POST form uploads. Below the part size (5 MiB
// here) each is one PutObject upstream, its ETag the body's MD5; above it a multipart upload
// upstream, its ETag the multipart form. Each case checks the stored bytes, the ETag, metadata and
// tags; a body that breaks off or fails its digest leaves no object and no upload upstream.
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { crc32 } from 'node:zlib';
import {
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { type AppProcess, makeTempDir, ROOT_CREDENTIALS, removeDir, signHeaders } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWS_BIN, type AwsRunner, awsCli } from '../helpers/aws-cli.js';
import { type ProxyScene, startProxyScene } from './proxy-scene.js';
import type { UpstreamGateway } from './upstream-gateway.js';

const MiB = 1024 ** 2;
const PART = 5 * MiB;
const BUCKET = `ul-${randomBytes(4).toString('hex')}`;

let scene: ProxyScene | undefined;
let up: UpstreamGateway;
let proxy: AppProcess;
let client: S3Client;
let workDir: string;

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest();
const quotedMd5 = (b: Uint8Array) => `"${md5(b).toString('hex')}"`;
/** S3's multipart ETag: the MD5 of the parts' MD5s, then `-<parts>`. */
function multipartEtag(body: Buffer, partSize: number): string {
  const digests: Buffer[] = [];
  for (let at = 0; at < body.length; at += partSize) digests.push(md5(body.subarray(at, at + partSize)));
  return `"${md5(Buffer.concat(digests)).toString('hex')}-${digests.length}"`;
}
const crc32Base64 = (b: Uint8Array) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32(b));
  return out.toString('base64');
};

async function stored(key: string): Promise<Buffer> {
  const out = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(
    await (out.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
  );
}

/** Neither the object nor any upload of it is left upstream (the abort may trail the answer). */
async function expectNothingUpstream(key: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (await up.client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: key }))).Uploads ??
        [],
      { timeout: 15_000, interval: 200 },
    )
    .toEqual([]);
  const head = await up.client
    .send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))
    .catch((e: unknown) => e);
  expect((head as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode).toBe(404);
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A signed PUT whose body goes with Transfer-Encoding: chunked (no Content-Length). With
 * `breakAfter`, the connection is torn down once that many bytes are written and `beforeBreak`
 * has resolved.
 */
async function chunkedPut(
  key: string,
  body: Buffer,
  headers: Record<string, string> = {},
  breakAt?: { bytes: number; beforeBreak: () => Promise<void> },
): Promise<Answer | 'broken'> {
  const path = `/${BUCKET}/${key}`;
  const signed = await signHeaders({
    baseUrl: proxy.url,
    credentials: ROOT_CREDENTIALS,
    method: 'PUT',
    path,
    headers,
    payloadHash: 'UNSIGNED-PAYLOAD',
  });
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, proxy.url), {
      method: 'PUT',
      headers: { ...signed, 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', (err) => (breakAt ? resolve('broken') : reject(err)));
    const CHUNK = 256 * 1024;
    const limit = breakAt?.bytes ?? body.length;
    void (async () => {
      for (let at = 0; at < limit; at += CHUNK) {
        if (!req.write(body.subarray(at, Math.min(at + CHUNK, limit))))
          await new Promise((r) => req.once('drain', r));
      }
      if (!breakAt) {
        req.end();
        return;
      }
      await breakAt.beforeBreak();
      req.destroy();
    })().catch(reject);
  });
}

beforeAll(async () => {
  scene = await startProxyScene({
    metaPrefix: 'ul-meta',
    s3Args: ['--upload-part-size', '5MiB', '--spool-memory', '256KiB'],
    buckets: [BUCKET],
  });
  ({ up, proxy, client } = scene);
  workDir = await makeTempDir('unknown-length-');
}, 60_000);

afterAll(async () => {
  await scene?.stop();
  if (workDir) await removeDir(workDir);
});

describe('chunked PUT (Transfer-Encoding: chunked, no Content-Length)', () => {
  it('below the part size: one PutObject upstream, the MD5 ETag, metadata and tags kept', async () => {
    const body = randomBytes(300 * 1024 + 7);
    const answer = await chunkedPut('chunked-small', body, {
      'x-amz-meta-color': 'blue',
      'content-type': 'text/plain',
      'x-amz-tagging': 'team=storage',
    });
    expect(answer).toMatchObject({ status: 200 });
    expect((answer as Answer).headers.etag).toBe(quotedMd5(body));
    expect((await stored('chunked-small')).equals(body)).toBe(true);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'chunked-small' }));
    expect(head).toMatchObject({
      ContentLength: body.length,
      ContentType: 'text/plain',
      Metadata: { color: 'blue' },
    });
    const tags = await client.send(new GetObjectTaggingCommand({ Bucket: BUCKET, Key: 'chunked-small' }));
    expect(tags.TagSet).toEqual([{ Key: 'team', Value: 'storage' }]);
  });

  it('above the part size: a multipart upload upstream, its ETag, the CRC32 checked, metadata and tags kept', async () => {
    const body = randomBytes(2 * PART + 123_457);
    const answer = await chunkedPut('chunked-large', body, {
      'x-amz-meta-color': 'green',
      'content-type': 'application/x-test',
      'x-amz-tagging': 'a=1&b=2',
      'x-amz-checksum-crc32': crc32Base64(body),
    });
    expect(answer).toMatchObject({ status: 200 });
    const etag = (answer as Answer).headers.etag;
    expect(etag).toBe(multipartEtag(body, PART));
    expect((answer as Answer).headers['x-amz-checksum-crc32']).toBe(crc32Base64(body));
    expect((await stored('chunked-large')).equals(body)).toBe(true);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'chunked-large' }));
    expect(head).toMatchObject({
      ETag: etag,
      ContentLength: body.length,
      ContentType: 'application/x-test',
      Metadata: { color: 'green' },
    });
    const tags = await client.send(new GetObjectTaggingCommand({ Bucket: BUCKET, Key: 'chunked-large' }));
    expect(tags.TagSet).toEqual([
      { Key: 'a', Value: '1' },
      { Key: 'b', Value: '2' },
    ]);
  });

  it('a wrong checksum found at the end answers BadDigest and leaves no object and no upload', async () => {
    const body = randomBytes(2 * PART + 10);
    const answer = await chunkedPut('chunked-bad-crc', body, {
      'x-amz-checksum-crc32': crc32Base64(Buffer.from('x')),
    });
    expect(answer).toMatchObject({ status: 400 });
    expect((answer as Answer).body).toContain('<Code>BadDigest</Code>');
    await expectNothingUpstream('chunked-bad-crc');
  });

  it('a client that goes away after the first part leaves no object and no upload upstream', async () => {
    const body = randomBytes(3 * PART);
    const key = 'chunked-broken';
    const result = await chunkedPut(
      key,
      body,
      {},
      {
        bytes: PART + 2 * MiB,
        // Only break off once the upload exists upstream: the abort is what is under test.
        beforeBreak: () =>
          expect
            .poll(
              async () =>
                (await up.client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: key })))
                  .Uploads?.length ?? 0,
              { timeout: 15_000, interval: 100 },
            )
            .toBe(1)
            .then(() => undefined),
      },
    );
    expect(result).toBe('broken');
    await expectNothingUpstream(key);
  });

  it('a client that goes away below the part size stores nothing', async () => {
    const body = randomBytes(2 * MiB);
    const result = await chunkedPut(
      'chunked-broken-small',
      body,
      {},
      {
        bytes: MiB,
        beforeBreak: () => new Promise((r) => setTimeout(r, 200)),
      },
    );
    expect(result).toBe('broken');
    await expectNothingUpstream('chunked-broken-small');
  });
});

describe.skipIf(AWS_BIN === undefined)(
  'aws s3 cp from stdin (aws-chunked, checksum trailer, no length)',
  () => {
    let aws: AwsRunner;
    beforeAll(async () => {
      aws = await awsCli({ endpoint: proxy.url, ...ROOT_CREDENTIALS, workDir });
    });

    it('a small stream: stored whole, MD5 ETag, metadata kept', async () => {
      const body = randomBytes(100 * 1024);
      const cp = await aws(['s3', 'cp', '-', `s3://${BUCKET}/cli-small`, '--metadata', 'origin=stdin'], body);
      expect(cp.stderr).toBe('');
      expect(cp.code).toBe(0);
      expect((await stored('cli-small')).equals(body)).toBe(true);
      const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'cli-small' }));
      expect(head).toMatchObject({ ETag: quotedMd5(body), Metadata: { origin: 'stdin' } });
    });

    it('a stream over the CLI chunk size: its parts arrive without length, each spooled whole', async () => {
      const body = randomBytes(12 * MiB + 5);
      const cp = await aws(['s3', 'cp', '-', `s3://${BUCKET}/cli-large`], body);
      expect(cp.code, cp.stderr).toBe(0);
      expect((await stored('cli-large')).equals(body)).toBe(true);
      const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'cli-large' }));
      // The CLI cuts stdin into 8 MiB parts of its own.
      expect(head.ETag).toBe(multipartEtag(body, 8 * MiB));
    });
  },
);

describe('POST object (browser form): the file part has no length of its own', () => {
  async function postForm(key: string, body: Buffer): Promise<Response> {
    const { url, fields } = await createPresignedPost(client as never, {
      Bucket: BUCKET,
      Key: key,
      Fields: { 'x-amz-meta-origin': 'form', 'Content-Type': 'text/csv' },
      Expires: 300,
    });
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([body]), 'upload.csv');
    return fetch(url, { method: 'POST', body: form });
  }

  it.each([
    ['form-small', 64 * 1024, (b: Buffer) => quotedMd5(b)],
    ['form-large', PART + 3 * MiB, (b: Buffer) => multipartEtag(b, PART)],
  ] as const)('%s: stored whole with the form fields', async (key, size, etagOf) => {
    const body = randomBytes(size);
    const res = await postForm(key, body);
    expect(res.status, await res.clone().text()).toBe(204);
    expect(res.headers.get('etag')).toBe(etagOf(body));
    expect((await stored(key)).equals(body)).toBe(true);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head).toMatchObject({ ContentType: 'text/csv', Metadata: { origin: 'form' } });
  });
});
