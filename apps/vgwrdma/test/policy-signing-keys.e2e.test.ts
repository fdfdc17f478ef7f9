// Bucket-policy condition keys that carry what authentication established (issue 30, item 3),
// each with AWS's documented deny policy, on the built gateway with --iam-dir and a bucket owned
// by a userplus account (the root account passes policy Denies, as in versitygw):
// s3:signatureversion (SigV2 by boto3 refused, SigV4 served), s3:authType (presigned URLs, POST
// forms), s3:signatureAge (a presigned URL signed 11 minutes ago), s3:x-amz-content-sha256
// (an UNSIGNED-PAYLOAD presigned PUT) and aws:SecureTransport (plain HTTP refused, TLS served).
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import {
  CreateBucketCommand,
  GetObjectCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  type IamScene,
  type IamUser,
  makeTempDir,
  makeTestCa,
  removeDir,
  sha256Hex,
  signHeaders,
  splitPathAndQuery,
  startIamScene,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOTO3_PYTHON, boto3Run } from './helpers/boto3.js';

const ALICE: IamUser = { access: 'alice-key', secret: 'alice-secret-0123456789', role: 'userplus' };

const denyPolicy = (bucket: string, action: string, condition: Record<string, Record<string, string>>) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Deny',
        Principal: '*',
        Action: action,
        Resource: `arn:aws:s3:::${bucket}/*`,
        Condition: condition,
      },
    ],
  });

const errorName = (p: Promise<unknown>) =>
  p.then(
    () => '',
    (e: { name?: string }) => e.name ?? 'Error',
  );

/** Alice's bucket with one object, `k` = "content", and the deny policy. */
async function bucketWithPolicy(s3: S3Client, bucket: string, policy: string): Promise<void> {
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'k', Body: 'content' }));
  await s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: policy }));
}

describe('signing condition keys (plain HTTP listener)', () => {
  let scene: IamScene;
  let alice: S3Client;
  beforeAll(async () => {
    scene = await startIamScene({ users: [ALICE] });
    alice = scene.client(ALICE);
  });
  afterAll(() => scene?.stop());

  it.skipIf(BOTO3_PYTHON === undefined)(
    'Deny unless s3:signatureversion is AWS4-HMAC-SHA256: a SigV2 GET by boto3 is refused, SigV4 reads',
    async () => {
      await bucketWithPolicy(
        alice,
        'sigv4-only',
        denyPolicy('sigv4-only', 's3:*', {
          StringNotEquals: { 's3:signatureversion': 'AWS4-HMAC-SHA256' },
        }),
      );
      const result = await boto3Run(
        scene.gw.url,
        ALICE,
        `
v2 = boto3.client('s3', endpoint_url=os.environ['GW_URL'], region_name='us-east-1',
    aws_access_key_id=os.environ['GW_ACCESS'], aws_secret_access_key=os.environ['GW_SECRET'],
    config=Config(signature_version='s3', s3={'addressing_style': 'path'}, retries={'max_attempts': 1}))
def get(client):
    try:
        return client.get_object(Bucket='sigv4-only', Key='k')['Body'].read().decode()
    except Exception as e:
        return e.response['Error']['Code']
out({'v2': get(v2), 'v4': get(s3)})
`,
      );
      expect(result).toEqual({ v2: 'AccessDenied', v4: 'content' });
    },
  );

  it('Deny when s3:authType is REST-QUERY-STRING: a presigned GET is refused, a header-signed GET reads', async () => {
    await bucketWithPolicy(
      alice,
      'no-urls',
      denyPolicy('no-urls', 's3:GetObject', { StringEquals: { 's3:authType': 'REST-QUERY-STRING' } }),
    );
    const url = await getSignedUrl(alice, new GetObjectCommand({ Bucket: 'no-urls', Key: 'k' }), {
      expiresIn: 600,
    });
    const res = await fetch(url);
    expect([res.status, /<Code>([^<]*)</.exec(await res.text())?.[1]]).toEqual([403, 'AccessDenied']);
    const got = await alice.send(new GetObjectCommand({ Bucket: 'no-urls', Key: 'k' }));
    expect(await got.Body?.transformToString()).toBe('content');
  });

  it("AWS's example: Deny a presigned URL whose signature is more than 10 minutes old (s3:signatureAge)", async () => {
    await bucketWithPolicy(
      alice,
      'fresh-urls',
      denyPolicy('fresh-urls', 's3:*', { NumericGreaterThan: { 's3:signatureAge': '600000' } }),
    );
    const command = new GetObjectCommand({ Bucket: 'fresh-urls', Key: 'k' });
    // Signed 11 minutes ago and valid for an hour: within its lifetime, but too old for the policy.
    const old = await getSignedUrl(alice, command, {
      expiresIn: 3600,
      signingDate: new Date(Date.now() - 11 * 60_000),
    });
    const refused = await fetch(old);
    expect([refused.status, /<Code>([^<]*)</.exec(await refused.text())?.[1]]).toEqual([403, 'AccessDenied']);
    const fresh = await fetch(await getSignedUrl(alice, command, { expiresIn: 3600 }));
    expect([fresh.status, await fresh.text()]).toEqual([200, 'content']);
    // Header-signed requests carry no signature age (the key works only for URLs, as in S3).
    const got = await alice.send(command);
    expect(await got.Body?.transformToString()).toBe('content');
  });

  it("AWS's example: Deny uploads whose payload is UNSIGNED-PAYLOAD (s3:x-amz-content-sha256), a presigned PUT too", async () => {
    await bucketWithPolicy(
      alice,
      'signed-bodies',
      denyPolicy('signed-bodies', 's3:PutObject', {
        StringEquals: { 's3:x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      }),
    );
    // A presigned PUT sends no x-amz-content-sha256 header: its body is unsigned all the same.
    const url = await getSignedUrl(alice, new PutObjectCommand({ Bucket: 'signed-bodies', Key: 'via-url' }), {
      expiresIn: 600,
    });
    const viaUrl = await fetch(url, { method: 'PUT', body: 'unsigned body' });
    expect(viaUrl.status).toBe(403);
    // A header-signed PUT declaring UNSIGNED-PAYLOAD: refused; the same PUT with its hash: stored.
    const put = async (payloadHash: string) => {
      const headers = await signHeaders({
        baseUrl: scene.gw.url,
        credentials: ALICE,
        method: 'PUT',
        path: '/signed-bodies/via-header',
        payloadHash,
      });
      return (
        await fetch(new URL('/signed-bodies/via-header', scene.gw.url), {
          method: 'PUT',
          headers,
          body: 'body',
        })
      ).status;
    };
    expect(await put('UNSIGNED-PAYLOAD')).toBe(403);
    expect(await put(sha256Hex('body'))).toBe(200);
    expect(
      await errorName(alice.send(new GetObjectCommand({ Bucket: 'signed-bodies', Key: 'via-url' }))),
    ).toBe('NoSuchKey');
  });

  it('Deny when s3:authType is POST: a signed form upload is refused, a header-signed PUT is stored', async () => {
    await bucketWithPolicy(
      alice,
      'no-forms',
      denyPolicy('no-forms', 's3:PutObject', { StringEquals: { 's3:authType': 'POST' } }),
    );
    // The presigned-post package pins its own client-s3 copy; the config it reads is the same.
    const { url, fields } = await createPresignedPost(alice as never, {
      Bucket: 'no-forms',
      Key: 'form.txt',
    });
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob(['from a form']), 'form.txt');
    const res = await fetch(url, { method: 'POST', body: form });
    expect([res.status, /<Code>([^<]*)</.exec(await res.text())?.[1]]).toEqual([403, 'AccessDenied']);
    expect(await errorName(alice.send(new GetObjectCommand({ Bucket: 'no-forms', Key: 'form.txt' })))).toBe(
      'NoSuchKey',
    );
    await alice.send(new PutObjectCommand({ Bucket: 'no-forms', Key: 'header.txt', Body: 'ok' }));
  });

  it("AWS's example: Deny when aws:SecureTransport is false refuses plain HTTP", async () => {
    await bucketWithPolicy(
      alice,
      'tls-only',
      denyPolicy('tls-only', 's3:*', { Bool: { 'aws:SecureTransport': 'false' } }),
    );
    expect(await errorName(alice.send(new GetObjectCommand({ Bucket: 'tls-only', Key: 'k' })))).toBe(
      'AccessDenied',
    );
  });
});

describe('aws:SecureTransport on a TLS listener', () => {
  let scene: IamScene;
  let work: string;
  let caPem: Buffer;
  beforeAll(async () => {
    work = await makeTempDir('vgwrdma-policy-tls-');
    const ca = await makeTestCa(work);
    caPem = await readFile(ca.caFile);
    const cert = await ca.issue('localhost');
    scene = await startIamScene({
      users: [ALICE],
      globalArgs: ['--cert', cert.certFile, '--key', cert.keyFile],
    });
  });
  afterAll(async () => {
    await scene?.stop();
    if (work) await removeDir(work);
  });

  /** A SigV4 header-signed request over https trusting the test CA. */
  async function overTls(method: string, path: string, body = ''): Promise<{ status: number; text: string }> {
    const headers = await signHeaders({
      baseUrl: scene.gw.url,
      credentials: ALICE,
      method,
      ...splitPathAndQuery(path),
      payloadHash: sha256Hex(body),
    });
    return new Promise((resolve, reject) => {
      const req = httpsRequest(new URL(path, scene.gw.url), { method, headers, ca: caPem }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('reads true there: the SecureTransport-false Deny lets TLS requests through, a true Deny stops them', async () => {
    expect(scene.gw.url).toMatch(/^https:/);
    expect((await overTls('PUT', '/tls-only')).status).toBe(200);
    expect((await overTls('PUT', '/tls-only/k', 'content')).status).toBe(200);
    const policy = (value: string) =>
      overTls(
        'PUT',
        '/tls-only?policy',
        denyPolicy('tls-only', 's3:GetObject', { Bool: { 'aws:SecureTransport': value } }),
      );
    expect((await policy('false')).status).toBeLessThan(300);
    expect(await overTls('GET', '/tls-only/k')).toEqual({ status: 200, text: 'content' });
    expect((await policy('true')).status).toBeLessThan(300);
    expect((await overTls('GET', '/tls-only/k')).status).toBe(403);
  });
});
