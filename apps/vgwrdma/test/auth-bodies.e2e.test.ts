// Issue 19's authentication and request-body items against the built gateway with real clients:
// boto3 (SigV2 header and presigned, its date, Content-MD5, Authorization and User-Agent cases,
// SigV4 presigned lifetimes, Expect, HTTP chunked and aws-chunked,gzip bodies, non-ASCII
// metadata; fixtures/boto3-auth-cases.py reports what the gateway answered), then
// @aws-sdk/client-s3 and its signer for the same body and header rules from Node.
import { execFile, execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SignatureV4 } from '@smithy/signature-v4';
import { ROOT_CREDENTIALS, Sha256 } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./fixtures/boto3-auth-cases.py', import.meta.url));

/** Debian's python3-boto3 first (what CI installs), then whatever python3 has boto3. */
function findBoto3Python(): string | undefined {
  for (const python of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(python, ['-c', 'import boto3'], { stdio: 'ignore' });
      return python;
    } catch {}
  }
  return undefined;
}
const PYTHON = findBoto3Python();

const bucket = 'auth-bodies';
const test = sceneTest({ buckets: [bucket] });

interface Outcome {
  status: number;
  code?: string;
  message?: string;
  value?: unknown;
  body?: string;
}

describe.skipIf(PYTHON === undefined)(
  'boto3 (skipped: no python3 with boto3; apt-get install python3-boto3)',
  () => {
    let r: Record<string, Outcome>;
    test.beforeAll(async ({ url }) => {
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          PYTHON ?? 'python3',
          [SCRIPT, url, ROOT_CREDENTIALS.access, ROOT_CREDENTIALS.secret, 'boto3-auth'],
          { timeout: 120_000 },
          (err, out, errOut) => (err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out)),
        ),
      );
      r = JSON.parse(stdout) as Record<string, Outcome>;
    }, 150_000);

    const codeOf = (name: string) => [r[name]?.status, r[name]?.code];

    it('SigV2 header signing: bucket, object, metadata and listing round trips', () => {
      expect(r.v2_create_bucket).toEqual({ status: 200, value: 200 });
      expect(r.v2_put?.status).toBe(200);
      expect(r.v2_get).toEqual({ status: 200, value: { body: 'bar', meta: { m: 'v' } } });
      expect(r.v2_list).toEqual({ status: 200, value: ['v2 key'] });
    });

    it('SigV2 Content-MD5: garbage is InvalidDigest, a digest of other bytes is BadDigest', () => {
      expect(codeOf('v2_md5_garbage')).toEqual([400, 'InvalidDigest']);
      expect(codeOf('v2_md5_mismatch')).toEqual([400, 'BadDigest']);
    });

    it('SigV2 dates: empty, invalid and pre-1970 are AccessDenied, far off is RequestTimeTooSkewed', () => {
      expect(codeOf('v2_date_invalid')).toEqual([403, 'AccessDenied']);
      expect(codeOf('v2_date_empty')).toEqual([403, 'AccessDenied']);
      expect(codeOf('v2_date_before_epoch')).toEqual([403, 'AccessDenied']);
      expect(codeOf('v2_date_before_today')).toEqual([403, 'RequestTimeTooSkewed']);
      expect(codeOf('v2_date_after_end')).toEqual([403, 'RequestTimeTooSkewed']);
      expect(r.v2_date_amz_valid?.status).toBe(200);
    });

    it('SigV2 Authorization: malformed is InvalidArgument, an unknown key InvalidAccessKeyId', () => {
      expect(codeOf('v2_auth_invalid')).toEqual([400, 'InvalidArgument']);
      expect(codeOf('v2_auth_unknown')).toEqual([403, 'InvalidAccessKeyId']);
    });

    it('an empty or missing User-Agent is accepted', () => {
      expect(r.v2_ua_empty?.status).toBe(200);
      expect(r.v2_ua_none?.status).toBe(200);
    });

    it('SigV2 presigned URLs: GET and PUT work, expired and tampered ones are refused', () => {
      expect(r.v2_presigned_get).toEqual({ status: 200, body: 'bar' });
      expect(r.v2_presigned_put?.status).toBe(200);
      expect(r.v2_presigned_put_read).toEqual({ status: 200, value: 'presigned body' });
      expect(r.v2_presigned_expired).toMatchObject({
        status: 403,
        code: 'AccessDenied',
        message: 'Request has expired.',
      });
      expect(codeOf('v2_presigned_tampered')).toEqual([403, 'SignatureDoesNotMatch']);
    });

    it('SigV4 presigned lifetimes beyond a week, negative or past are 403 AccessDenied', () => {
      expect(r.v4_presigned_too_long).toMatchObject({
        status: 403,
        code: 'AccessDenied',
        message:
          'X-Amz-Expires must be less than a week (in seconds) that is; the maximum expires is 604800 seconds.',
      });
      expect(r.v4_presigned_negative).toMatchObject({
        status: 403,
        code: 'AccessDenied',
        message: 'X-Amz-Expires must be non-negative',
      });
      expect(r.v4_presigned_expired).toMatchObject({ status: 403, code: 'AccessDenied' });
    });

    it('Expect: 200 and an empty Expect are ignored', () => {
      expect(r.expect_200).toEqual({ status: 200, value: 200 });
      expect(r.expect_empty?.status).toBe(200);
    });

    it('non-ASCII metadata signs under SigV4 and SigV2 and comes back as sent (no RFC 2047 word)', () => {
      for (const v of ['v4', 'v2']) {
        expect(r[`${v}_meta_unicode_put`]?.status).toBe(200);
        expect(r[`${v}_meta_unicode_get`]).toEqual({ status: 200, value: 'Hello World\u00e9' });
      }
    });

    it('a Transfer-Encoding: chunked PUT without Content-Length is stored', () => {
      expect(r.te_chunked_put?.status).toBe(200);
      expect(r.te_chunked_get).toEqual({ status: 200, value: 'chunk one, chunk two' });
    });

    it('Content-Encoding: aws-chunked,gzip stores the gzip bytes with Content-Encoding gzip', () => {
      expect(r.aws_chunked_gzip_put?.status).toBe(200);
      expect(r.aws_chunked_gzip_get).toEqual({
        status: 200,
        value: { encoding: 'gzip', length: expect.any(Number), text: 'gzip inside aws-chunked' },
      });
    });
  },
);

/** A SigV4-signed request sent with node:http; answers status and body. */
async function signedRequest(
  endpoint: string,
  opts: {
    method: string;
    path: string;
    headers: Record<string, string>;
    /** Header values as they go on the wire when they differ from the signed ones. */
    wireHeaders?: Record<string, string>;
    body?: Readable;
  },
): Promise<{ status: number; text: string }> {
  const url = new URL(endpoint);
  const signer = new SignatureV4({
    credentials: { accessKeyId: ROOT_CREDENTIALS.access, secretAccessKey: ROOT_CREDENTIALS.secret },
    region: 'us-east-1',
    service: 's3',
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: opts.method,
    protocol: 'http:',
    hostname: url.hostname,
    port: Number(url.port),
    path: opts.path,
    headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', ...opts.headers },
  });
  const headers = { ...(signed.headers as Record<string, string>), ...opts.wireHeaders };
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: opts.method, path: opts.path, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    if (opts.body) opts.body.pipe(req);
    else req.end();
  });
}

describe('@aws-sdk/client-s3 and its signer', () => {
  test('Expect values other than 100-continue get the answer, never 417', async ({ url }) => {
    for (const expectValue of ['200', 'something-else']) {
      const res = await signedRequest(url, {
        method: 'GET',
        path: `/${bucket}`,
        headers: { expect: expectValue },
      });
      expect(res.status).toBe(200);
    }
  });

  test('stores a chunked PUT without Content-Length (node:http streams it chunked)', async ({ url, s3 }) => {
    const res = await signedRequest(url, {
      method: 'PUT',
      path: `/${bucket}/te-chunked`,
      headers: { 'transfer-encoding': 'chunked' },
      body: Readable.from([Buffer.from('first '), Buffer.from('second')]),
    });
    expect(res.status).toBe(200);
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'te-chunked' }));
    expect([out.ContentLength, await out.Body?.transformToString()]).toEqual([12, 'first second']);
  });

  test('the SDK streaming a gzip body (aws-chunked with a checksum trailer) keeps ContentEncoding gzip', async ({
    s3,
  }) => {
    const packed = gzipSync('compressed text');
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'gz-sdk',
        Body: Readable.from([packed]),
        ContentLength: packed.length,
        ContentEncoding: 'gzip',
      }),
    );
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'gz-sdk' }));
    expect([head.ContentEncoding, head.ContentLength]).toEqual(['gzip', packed.length]);
  });

  test('metadata sent as UTF-8 bytes (as Go or Java clients do) or as latin1 (the SDK) signs and reads back', async ({
    url,
    s3,
  }) => {
    // Signed over 'é' (UTF-8 C3 A9); the wire carries those two bytes, which Node's client
    // writes from the latin1 string 'Ã©'.
    const raw = await signedRequest(url, {
      method: 'PUT',
      path: `/${bucket}/meta-utf8`,
      headers: { 'x-amz-meta-m': 'caf\u00e9', 'content-length': '0' },
      wireHeaders: { 'x-amz-meta-m': Buffer.from('caf\u00e9', 'utf8').toString('latin1') },
    });
    expect(raw.status).toBe(200);
    await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'meta-latin1', Body: 'x', Metadata: { m: 'caf\u00e9' } }),
    );
    // Both read back as the text sent (é as ISO-8859-1, how HTTP clients read header bytes).
    for (const key of ['meta-utf8', 'meta-latin1']) {
      const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      expect(head.Metadata?.m).toBe('caf\u00e9');
    }
  });

  test('a presigned URL whose X-Amz-Expires was raised past a week is 403 AccessDenied', async ({ s3 }) => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'p', Body: 'p' }));
    const url = new URL(
      await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: 'p' }), { expiresIn: 60 }),
    );
    expect((await fetch(url)).status).toBe(200);
    url.searchParams.set('X-Amz-Expires', '604801');
    const res = await fetch(url);
    const text = await res.text();
    expect(res.status).toBe(403);
    expect(text).toContain('<Code>AccessDenied</Code>');
    expect(text).toContain('the maximum expires is 604800 seconds');
  });
});
