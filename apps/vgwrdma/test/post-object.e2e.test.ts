// POST object (browser form uploads) against the built gateway: forms made by
// @aws-sdk/s3-presigned-post's createPresignedPost and sent with Node's fetch + FormData, the
// success answers (201 PostResponse, 204, 303 redirect), what a policy refuses (conditions,
// extra fields, sizes, expiry, signatures), the signer's permissions (also s3:PutObjectTagging
// and s3:PutObjectAcl for the tagging and acl fields), anonymous forms where the bucket's ACL
// allows them,
// SigV2 forms, virtual-host addressing and CORS on the answer.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import {
  CreateBucketCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutBucketAclCommand,
  PutBucketCorsCommand,
  PutBucketPolicyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost, type PresignedPostOptions } from '@aws-sdk/s3-presigned-post';
import { type GatewayProcess, ROOT_CREDENTIALS, s3Client } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

// biome-ignore lint/suspicious/noTemplateCurlyInString: S3's literal placeholder, not a template
const FILENAME = '${filename}';
const BOB = { access: 'bob-key', secret: 'bob-secret' };
const DOMAIN = 's3.test';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** The form fields in order, then the file last (S3 ignores what follows the file). */
function formOf(fields: Record<string, string>, file: string, filename = 'upload.bin'): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([file], { type: 'application/octet-stream' }), filename);
  return form;
}

/** A POST of a form (or of a raw body, with its content-type in `headers`), answered. */
async function post(
  url: string,
  body: FormData | string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', body, headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A SigV4 POST signature by the root user, for policies createPresignedPost would not write. */
function signV4(policy: string, date: string): string {
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const key = hmac(
    hmac(hmac(hmac(`AWS4${ROOT_CREDENTIALS.secret}`, date), 'us-east-1'), 's3'),
    'aws4_request',
  );
  return createHmac('sha256', key).update(policy).digest('hex');
}

const codeOf = (a: Answer) => /<Code>([^<]*)<\/Code>/.exec(a.text)?.[1];
const messageOf = (a: Answer) =>
  /<Message>([^<]*)<\/Message>/.exec(a.text)?.[1]?.replaceAll('&quot;', '"').replaceAll('&amp;', '&');

const test = sceneTest({ users: { bob: BOB }, globalArgs: ['--virtual-domain', DOMAIN], buckets: ['forms'] });

describe('vgwrdma POST object', () => {
  let gw: GatewayProcess;
  let root: S3Client;
  let bob: S3Client;
  const presign = (client: S3Client, opts: PresignedPostOptions) =>
    // The presigned-post package pins its own client-s3 copy; the config it reads is the same.
    createPresignedPost(client as never, opts);
  const exists = (Bucket: string, Key: string) =>
    root.send(new HeadObjectCommand({ Bucket, Key })).then(
      () => true,
      () => false,
    );

  test.beforeAll(({ scene, clients }) => {
    gw = scene.gw;
    root = scene.s3;
    bob = clients.bob;
  });

  it('stores a policy-signed upload: key from the filename, content type, metadata, 201 PostResponse', async () => {
    const { url, fields } = await presign(root, {
      Bucket: 'forms',
      Key: `uploads/${FILENAME}`,
      Conditions: [['content-length-range', 1, 1024]],
      Fields: {
        acl: 'private',
        'Content-Type': 'text/plain',
        'x-amz-meta-color': 'blue',
        success_action_status: '201',
        tagging: '<Tagging><TagSet><Tag><Key>kind</Key><Value>form</Value></Tag></TagSet></Tagging>',
      },
    });
    expect(url).toBe(`${gw.url}/forms`);
    const res = await post(url, formOf(fields, 'hello form', 'hello.txt'));
    expect(res.status).toBe(201);
    expect(res.text).toContain('<Key>uploads/hello.txt</Key>');
    expect(res.text).toContain('<Bucket>forms</Bucket>');
    expect(res.text).toContain(`<Location>${gw.url}/forms/uploads/hello.txt</Location>`);
    const got = await root.send(new GetObjectCommand({ Bucket: 'forms', Key: 'uploads/hello.txt' }));
    expect(await got.Body?.transformToString()).toBe('hello form');
    expect(got.ContentType).toBe('text/plain');
    expect(got.Metadata).toEqual({ color: 'blue' });
    const tags = await root.send(new GetObjectTaggingCommand({ Bucket: 'forms', Key: 'uploads/hello.txt' }));
    expect(tags.TagSet).toEqual([{ Key: 'kind', Value: 'form' }]);
    expect(res.text).toContain(`<ETag>${got.ETag?.replaceAll('"', '&quot;')}</ETag>`);
  });

  it('answers 204 by default and 303 to success_action_redirect; verifies a checksum field', async () => {
    const plain = await presign(root, {
      Bucket: 'forms',
      Key: 'plain.txt',
      Fields: { 'x-amz-checksum-crc32': 'DUoRhQ==' }, // CRC32 of "hello world"
    });
    const res = await post(plain.url, formOf(plain.fields, 'hello world'));
    expect(res.status).toBe(204);
    expect(res.headers.get('location')).toBe(`${gw.url}/forms/plain.txt`);
    expect(res.headers.get('x-amz-checksum-crc32')).toBe('DUoRhQ==');
    const head = await root.send(
      new HeadObjectCommand({ Bucket: 'forms', Key: 'plain.txt', ChecksumMode: 'ENABLED' }),
    );
    expect([head.ETag, head.ChecksumCRC32]).toEqual([res.headers.get('etag'), 'DUoRhQ==']);

    const bad = await post(plain.url, formOf({ ...plain.fields }, 'hello there'));
    expect([bad.status, codeOf(bad)]).toEqual([400, 'BadDigest']);

    const redirect = 'http://app.example/done?from=form';
    const r = await presign(root, {
      Bucket: 'forms',
      Key: 'r.txt',
      Fields: { success_action_redirect: redirect },
    });
    const moved = await post(r.url, formOf(r.fields, 'redirected'));
    expect(moved.status).toBe(303);
    const etag = (await root.send(new HeadObjectCommand({ Bucket: 'forms', Key: 'r.txt' }))).ETag ?? '';
    expect(moved.headers.get('location')).toBe(
      `${redirect}&bucket=forms&key=r.txt&etag=${encodeURIComponent(etag)}`,
    );
  });

  it('refuses what the policy does not allow, storing nothing', async () => {
    const ranged = await presign(root, {
      Bucket: 'forms',
      Key: 'sized',
      Conditions: [['content-length-range', 4, 8]],
    });
    const big = await post(ranged.url, formOf(ranged.fields, 'x'.repeat(9)));
    expect([big.status, codeOf(big)]).toEqual([400, 'EntityTooLarge']);
    // Past the socket buffers: the rest of the body is read and dropped, the answer still arrives.
    const huge = await post(ranged.url, formOf(ranged.fields, 'x'.repeat(2_000_000)));
    expect([huge.status, codeOf(huge)]).toEqual([400, 'EntityTooLarge']);
    const small = await post(ranged.url, formOf(ranged.fields, 'xyz'));
    expect([small.status, codeOf(small)]).toEqual([400, 'EntityTooSmall']);
    expect(await exists('forms', 'sized')).toBe(false);

    const prefixed = await presign(root, { Bucket: 'forms', Key: `user/${FILENAME}` });
    const outside = await post(prefixed.url, formOf({ ...prefixed.fields, key: 'other/x' }, 'data'));
    expect([outside.status, codeOf(outside), messageOf(outside)]).toEqual([
      403,
      'AccessDenied',
      'Invalid according to Policy: Policy Condition failed: ["starts-with", "$key", "user/"]',
    ]);
    const extra = await post(prefixed.url, formOf({ ...prefixed.fields, 'x-amz-meta-extra': '1' }, 'data'));
    expect([extra.status, messageOf(extra)]).toEqual([
      403,
      'Invalid according to Policy: Extra input fields: x-amz-meta-extra',
    ]);

    const expired = await presign(root, { Bucket: 'forms', Key: 'late', Expires: -60 });
    const late = await post(expired.url, formOf(expired.fields, 'data'));
    expect([late.status, messageOf(late)]).toEqual([403, 'Invalid according to Policy: Policy expired.']);

    const good = await presign(root, { Bucket: 'forms', Key: 'signed' });
    const sig = good.fields['X-Amz-Signature'] ?? '';
    const tampered = {
      ...good.fields,
      'X-Amz-Signature': `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`,
    };
    const forged = await post(good.url, formOf(tampered, 'data'));
    expect([forged.status, codeOf(forged)]).toEqual([403, 'SignatureDoesNotMatch']);
    const unknown = await presign(s3Client(gw.url, { access: 'nobody', secret: 'x' }), {
      Bucket: 'forms',
      Key: 'k',
    });
    expect(codeOf(await post(unknown.url, formOf(unknown.fields, 'data')))).toBe('InvalidAccessKeyId');

    const { key: _key, ...keyless } = good.fields;
    const nokey = await post(good.url, formOf(keyless, 'data'));
    expect([nokey.status, codeOf(nokey)]).toEqual([400, 'InvalidArgument']);
    const garbage = Buffer.from('{"conditions": []}').toString('base64');
    const date = (good.fields['X-Amz-Date'] ?? '').slice(0, 8);
    const garbled = { ...good.fields, Policy: garbage, 'X-Amz-Signature': signV4(garbage, date) };
    const invalid = await post(good.url, formOf(garbled, 'data'));
    expect([invalid.status, codeOf(invalid), messageOf(invalid)]).toEqual([
      400,
      'InvalidPolicyDocument',
      'Invalid Policy: Policy missing expiration.',
    ]);

    await root.send(new CreateBucketCommand({ Bucket: 'forms-other' }));
    const wrongBucket = await post(`${gw.url}/forms-other`, formOf(good.fields, 'data'));
    expect([wrongBucket.status, codeOf(wrongBucket)]).toEqual([403, 'AccessDenied']);

    const notForm = await post(good.url, 'key=x', { 'content-type': 'text/plain' });
    expect([notForm.status, codeOf(notForm)]).toEqual([412, 'PreconditionFailed']);
    const fileless = new FormData();
    for (const [name, value] of Object.entries(good.fields)) fileless.append(name, value);
    const noFile = await post(good.url, fileless);
    expect([noFile.status, messageOf(noFile)]).toEqual([
      400,
      'POST requires exactly one file upload per request.',
    ]);
    const broken = await post(good.url, '--xyz\r\nContent-Disposition: form-data; name="key"\r\n\r\nsigned', {
      'content-type': 'multipart/form-data; boundary=xyz',
    });
    expect([broken.status, codeOf(broken)]).toEqual([400, 'MalformedPOSTRequest']);
    for (const key of ['signed', 'other/x', 'late']) expect(await exists('forms', key)).toBe(false);
  });

  it('authorizes the signer: a user without write access is refused', async () => {
    const form = await presign(bob, { Bucket: 'forms', Key: 'from-bob' });
    const res = await post(form.url, formOf(form.fields, 'data'));
    expect([res.status, codeOf(res), messageOf(res)]).toEqual([403, 'AccessDenied', 'Access Denied.']);
    expect(await exists('forms', 'from-bob')).toBe(false);
  });

  it('needs s3:PutObjectTagging for a tagging field and s3:PutObjectAcl for a public acl field', async () => {
    const Bucket = 'forms-options';
    await root.send(new CreateBucketCommand({ Bucket }));
    const allow = (actions: string[]) =>
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { AWS: [BOB.access] },
            Action: actions,
            Resource: `arn:aws:s3:::${Bucket}/*`,
          },
        ],
      });
    await root.send(new PutBucketPolicyCommand({ Bucket, Policy: allow(['s3:PutObject']) }));
    const tagging = '<Tagging><TagSet><Tag><Key>label</Key><Value>forged</Value></Tag></TagSet></Tagging>';
    const send = async (Key: string, Fields: Record<string, string>) => {
      const form = await presign(bob, { Bucket, Key, Fields });
      return post(form.url, formOf(form.fields, 'data'));
    };
    // Bob may write, so a plain form is stored (control) ...
    expect((await send('plain', {})).status).toBe(204);
    // ... but neither labels nor publishes what he writes.
    const tagged = await send('tagged', { tagging });
    expect([tagged.status, codeOf(tagged)]).toEqual([403, 'AccessDenied']);
    const published = await send('published', { acl: 'public-read' });
    expect([published.status, codeOf(published)]).toEqual([403, 'AccessDenied']);
    for (const key of ['tagged', 'published']) expect(await exists(Bucket, key)).toBe(false);
    // With the permissions granted, the same forms are stored.
    await root.send(
      new PutBucketPolicyCommand({
        Bucket,
        Policy: allow(['s3:PutObject', 's3:PutObjectTagging', 's3:PutObjectAcl']),
      }),
    );
    expect((await send('tagged', { tagging })).status).toBe(204);
    const tags = await root.send(new GetObjectTaggingCommand({ Bucket, Key: 'tagged' }));
    expect(tags.TagSet).toEqual([{ Key: 'label', Value: 'forged' }]);
    expect((await send('published', { acl: 'public-read' })).status).toBe(204);
    expect((await fetch(`${gw.url}/${Bucket}/published`)).status).toBe(200);
  });

  it('takes anonymous forms only where the bucket ACL allows writes', async () => {
    await root.send(new CreateBucketCommand({ Bucket: 'drop-box' }));
    const fields = { key: 'anon.txt', 'Content-Type': 'text/plain' };
    const refused = await post(`${gw.url}/drop-box`, formOf(fields, 'anonymous'));
    expect([refused.status, codeOf(refused)]).toEqual([403, 'AccessDenied']);
    await root.send(new PutBucketAclCommand({ Bucket: 'drop-box', ACL: 'public-read-write' }));
    const ok = await post(`${gw.url}/drop-box`, formOf(fields, 'anonymous'));
    expect(ok.status).toBe(204);
    const got = await root.send(new GetObjectCommand({ Bucket: 'drop-box', Key: 'anon.txt' }));
    expect(await got.Body?.transformToString()).toBe('anonymous');
  });

  it('accepts a SigV2-signed form (AWSAccessKeyId + signature) and rejects a wrong one', async () => {
    const expiration = new Date(Date.now() + 600_000).toISOString();
    const policy = Buffer.from(
      JSON.stringify({
        expiration,
        conditions: [{ bucket: 'forms' }, ['starts-with', '$key', 'v2/'], { acl: 'private' }],
      }),
    ).toString('base64');
    const signature = createHmac('sha1', ROOT_CREDENTIALS.secret).update(policy).digest('base64');
    const fields = {
      key: 'v2/obj',
      AWSAccessKeyId: ROOT_CREDENTIALS.access,
      acl: 'private',
      policy,
      signature,
    };
    expect((await post(`${gw.url}/forms`, formOf(fields, 'v2 data'))).status).toBe(204);
    expect(await exists('forms', 'v2/obj')).toBe(true);
    const wrong = await post(`${gw.url}/forms`, formOf({ ...fields, key: 'v2/bad', signature: 'AAAA' }, 'x'));
    expect([wrong.status, codeOf(wrong)]).toEqual([403, 'SignatureDoesNotMatch']);

    // As Python's requests sends forms: every field a part with a filename, names in any case.
    const asFiles = new FormData();
    const mixedCase = {
      kEy: 'v2/as-files',
      AWSAccessKeyId: ROOT_CREDENTIALS.access,
      aCl: 'private',
      pOLICy: policy,
      signature,
    };
    for (const [name, value] of Object.entries(mixedCase)) asFiles.append(name, new Blob([value]), name);
    asFiles.append('file', new Blob(['sent as files']), 'file');
    expect((await post(`${gw.url}/forms`, asFiles)).status).toBe(204);
    const got = await root.send(new GetObjectCommand({ Bucket: 'forms', Key: 'v2/as-files' }));
    expect(await got.Body?.transformToString()).toBe('sent as files');
  });

  it('serves virtual-host POSTs (bucket in the Host header)', async () => {
    const { fields } = await presign(root, { Bucket: 'forms', Key: 'vhost.txt' });
    const encoded = new Response(formOf(fields, 'by host'));
    const body = Buffer.from(await encoded.arrayBuffer());
    const { port } = new URL(gw.url);
    const answer = await new Promise<{ status: number; location: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/',
          headers: {
            host: `forms.${DOMAIN}:${port}`,
            'content-type': encoded.headers.get('content-type') ?? '',
            'content-length': body.length,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, location: String(res.headers.location) }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(answer).toEqual({ status: 204, location: `http://forms.${DOMAIN}:${port}/vhost.txt` });
    expect(await exists('forms', 'vhost.txt')).toBe(true);
  });

  it('sends CORS headers on the POST answer and on its preflight', async () => {
    await root.send(
      new PutBucketCorsCommand({
        Bucket: 'forms',
        CORSConfiguration: {
          CORSRules: [
            { AllowedOrigins: ['http://app.example'], AllowedMethods: ['POST'], ExposeHeaders: ['ETag'] },
          ],
        },
      }),
    );
    const origin = { origin: 'http://app.example' };
    const preflight = await fetch(`${gw.url}/forms`, {
      method: 'OPTIONS',
      headers: { ...origin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.example');
    const { url, fields } = await presign(root, { Bucket: 'forms', Key: 'cors.txt' });
    const res = await post(url, formOf(fields, 'cors'), origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.example');
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag');
    const refused = await post(url, formOf({ ...fields, key: 'elsewhere' }, 'cors'), origin);
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([
      403,
      'http://app.example',
    ]);
  });
});
