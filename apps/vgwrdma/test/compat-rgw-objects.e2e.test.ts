// Object behaviour ahead of Ceph RGW, on the built gateway (posix with --iam-dir and
// --versioning-dir) driven by boto3, @aws-sdk/client-s3 and raw sockets where a client will not
// send the bytes: ten tags at S3's size limits stored and returned exactly (PutObjectTagging,
// x-amz-tagging at PUT, copy and multipart, an archived version) with InvalidTag past them;
// user metadata answered as the bytes sent; Content-Encoding as spelled; GET ?torrent; keys that
// are not UTF-8 text; POST object checksum fields; a SigV2 PUT whose body ends early.
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import {
  CreateBucketCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { type IamScene, type IamUser, signHeaders, startIamScene } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOTO3_PYTHON, boto3Run } from './helpers/boto3.js';

const MAIN: IamUser = { access: 'rgw-obj-main', secret: 'rgw-obj-main-secret', role: 'userplus' };

/** Ten tags of 128-character keys and 256-character values: S3's limits exactly. */
const maxTags = (seed: string) =>
  Array.from({ length: 10 }, (_, i) => ({
    Key: `${seed}${i}`.padEnd(128, 'k'),
    Value: `${seed}${i}`.padEnd(256, 'v'),
  }));

/** Sends `request` on a raw socket and answers the status line's code and the body. */
function rawRequest(
  url: string,
  request: Buffer,
  halfClose = false,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(request);
      if (halfClose) socket.end();
    });
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), body: text });
    });
  });
}

describe('S3 object behaviour ahead of Ceph RGW', { timeout: 180_000 }, () => {
  let scene: IamScene;
  let main: S3Client;
  const boto = (program: string) => boto3Run(scene.gw.url, MAIN, program);
  const Bucket = 'rgw-objects';

  beforeAll(async () => {
    scene = await startIamScene({ users: [MAIN], versioning: true });
    main = scene.client(MAIN);
    await main.send(new CreateBucketCommand({ Bucket }));
  });
  afterAll(() => scene?.stop());

  it.skipIf(BOTO3_PYTHON === undefined)(
    'stores ten tags at the size limits exactly: PutObjectTagging, PUT, copy, multipart, an old version (boto3)',
    async () => {
      const tags = maxTags('t');
      const got = (await boto(
        `
import urllib.parse, botocore
b = 'rgw-objects-tags'
tags = json.loads(${JSON.stringify(JSON.stringify(tags))})
header = urllib.parse.urlencode([(t['Key'], t['Value']) for t in tags])
s3.create_bucket(Bucket=b)
s3.put_bucket_versioning(Bucket=b, VersioningConfiguration={'Status': 'Enabled'})
def tagset(key, version=None):
    kw = {'VersionId': version} if version else {}
    return s3.get_object_tagging(Bucket=b, Key=key, **kw)['TagSet']
res = {}
v1 = s3.put_object(Bucket=b, Key='api', Body=b'x', ContentType='text/plain', Metadata={'m': 'v' * 500})['VersionId']
s3.put_object_tagging(Bucket=b, Key='api', VersionId=v1, Tagging={'TagSet': tags})
res['api'] = tagset('api')
s3.put_object(Bucket=b, Key='api', Body=b'newer')
res['archived'] = tagset('api', v1)
res['latest_after_overwrite'] = tagset('api')
s3.put_object(Bucket=b, Key='put', Body=b'x', Tagging=header)
res['put'] = tagset('put')
res['head_count'] = s3.head_object(Bucket=b, Key='put').get('ResponseMetadata')['HTTPHeaders'].get('x-amz-tagging-count')
s3.copy_object(Bucket=b, Key='copy', CopySource={'Bucket': b, 'Key': 'put'})
res['copy'] = tagset('copy')
s3.copy_object(Bucket=b, Key='copy-replaced', CopySource={'Bucket': b, 'Key': 'api', 'VersionId': v1},
               TaggingDirective='REPLACE', Tagging=header)
res['copy_replaced'] = tagset('copy-replaced')
up = s3.create_multipart_upload(Bucket=b, Key='mp', Tagging=header)['UploadId']
etag = s3.upload_part(Bucket=b, Key='mp', UploadId=up, PartNumber=1, Body=b'part')['ETag']
s3.complete_multipart_upload(Bucket=b, Key='mp', UploadId=up,
    MultipartUpload={'Parts': [{'PartNumber': 1, 'ETag': etag}]})
res['mp'] = tagset('mp')
out(res)
`,
      )) as Record<string, unknown>;
      for (const k of ['api', 'archived', 'put', 'copy', 'copy_replaced', 'mp'])
        expect(got[k], k).toEqual(tags);
      expect(got.latest_after_overwrite).toEqual([]);
      expect(got.head_count).toBe('10');
    },
  );

  it.skipIf(BOTO3_PYTHON === undefined)(
    'answers InvalidTag past the limits at PutObjectTagging, PUT, copy and multipart, storing nothing (boto3)',
    async () => {
      const got = (await boto(
        `
import urllib.parse, botocore
b = '${Bucket}'
def code(f):
    try:
        f()
        return 'ok'
    except botocore.exceptions.ClientError as e:
        return e.response['Error']['Code']
cases = {
    'key129': [('k' * 129, 'v')],
    'value257': [('k', 'v' * 257)],
    'eleven': [('k%d' % i, 'v') for i in range(11)],
}
s3.put_object(Bucket=b, Key='src', Body=b'x')
res = {}
for name, pairs in cases.items():
    header = urllib.parse.urlencode(pairs)
    res[name] = {
        'api': code(lambda: s3.put_object_tagging(Bucket=b, Key='src',
                    Tagging={'TagSet': [{'Key': k, 'Value': v} for k, v in pairs]})),
        'put': code(lambda: s3.put_object(Bucket=b, Key='put-' + name, Body=b'x', Tagging=header)),
        'copy': code(lambda: s3.copy_object(Bucket=b, Key='copy-' + name, CopySource={'Bucket': b, 'Key': 'src'},
                     TaggingDirective='REPLACE', Tagging=header)),
        'mp': code(lambda: s3.create_multipart_upload(Bucket=b, Key='mp-' + name, Tagging=header)),
    }
res['stored'] = sorted(o['Key'] for o in s3.list_objects_v2(Bucket=b).get('Contents', []))
res['src_tags'] = s3.get_object_tagging(Bucket=b, Key='src')['TagSet']
out(res)
`,
      )) as Record<string, unknown>;
      const all = { api: 'InvalidTag', put: 'InvalidTag', copy: 'InvalidTag', mp: 'InvalidTag' };
      expect(got).toEqual({ key129: all, value257: all, eleven: all, stored: ['src'], src_tags: [] });
    },
  );

  it('keeps ten tags at the limits through the SDK, in an overflow file beside the bucket', async () => {
    const tags = maxTags('s');
    await main.send(new PutObjectCommand({ Bucket, Key: 'sdk-tags', Body: 'x' }));
    await main.send(new PutObjectTaggingCommand({ Bucket, Key: 'sdk-tags', Tagging: { TagSet: tags } }));
    const out = await main.send(new GetObjectTaggingCommand({ Bucket, Key: 'sdk-tags' }));
    expect(out.TagSet).toEqual(tags);
  });

  it('reads user metadata back as the client sent it, no RFC 2047 word (SDK, raw UTF-8)', async () => {
    await main.send(
      new PutObjectCommand({ Bucket, Key: 'meta-sdk', Body: 'x', Metadata: { meta1: 'Hello Wörld é' } }),
    );
    const head = await main.send(new HeadObjectCommand({ Bucket, Key: 'meta-sdk' }));
    expect(head.Metadata?.meta1).toBe('Hello Wörld é');
    // Text beyond ISO-8859-1, sent as raw UTF-8 (as a Go or Java client does): the same bytes come back.
    const utf8 = Buffer.from('Hello 日本', 'utf8').toString('latin1');
    const put = await rawRequest(
      scene.gw.url,
      await signedRaw('PUT', `/${Bucket}/meta-raw`, { 'x-amz-meta-meta1': utf8 }, 'x'),
    );
    expect(put.status).toBe(200);
    const get = await rawRequest(scene.gw.url, await signedRaw('GET', `/${Bucket}/meta-raw`));
    const line = get.body.split('\r\n').find((l) => l.startsWith('x-amz-meta-meta1:')) ?? '';
    expect(Buffer.from(line, 'latin1').toString('utf8')).toBe('x-amz-meta-meta1: Hello 日本');
  });

  it.skipIf(BOTO3_PYTHON === undefined)(
    'reads non-ASCII metadata and Content-Encoding back as sent (boto3)',
    async () => {
      const got = await boto(
        `
def meta(**kw): kw['params']['headers']['x-amz-meta-meta1'] = u"Hello World\xe9"
s3.meta.events.register('before-call.s3.PutObject', meta)
s3.put_object(Bucket='${Bucket}', Key='meta-boto', Body=b'bar')
s3.meta.events.unregister('before-call.s3.PutObject', meta)
s3.put_object(Bucket='${Bucket}', Key='enc-boto', Body=b'x', ContentEncoding='deflate, gzip')
out([s3.get_object(Bucket='${Bucket}', Key='meta-boto')['Metadata']['meta1'],
     s3.head_object(Bucket='${Bucket}', Key='meta-boto')['Metadata']['meta1'],
     s3.head_object(Bucket='${Bucket}', Key='enc-boto')['ContentEncoding']])
`,
      );
      expect(got).toEqual(['Hello World\u00e9', 'Hello World\u00e9', 'deflate, gzip']);
    },
  );

  it('keeps Content-Encoding as the client spelled it (SDK)', async () => {
    await main.send(
      new PutObjectCommand({ Bucket, Key: 'enc', Body: 'x', ContentEncoding: 'deflate, gzip' }),
    );
    const head = await main.send(new HeadObjectCommand({ Bucket, Key: 'enc' }));
    expect(head.ContentEncoding).toBe('deflate, gzip');
  });

  it.skipIf(BOTO3_PYTHON === undefined)(
    'answers GET ?torrent 404 NoSuchKey for a missing key and NotImplemented for an existing one (boto3)',
    async () => {
      const got = await boto(
        `
import botocore
s3.put_object(Bucket='${Bucket}', Key='torrent', Body=b'x')
def code(key):
    try:
        s3.get_object_torrent(Bucket='${Bucket}', Key=key)
        return 'ok'
    except botocore.exceptions.ClientError as e:
        return [e.response['ResponseMetadata']['HTTPStatusCode'], e.response['Error']['Code']]
out({'missing': code('no-such-key'), 'existing': code('torrent')})
`,
      );
      expect(got).toEqual({ missing: [404, 'NoSuchKey'], existing: [501, 'NotImplemented'] });
    },
  );

  it.skipIf(BOTO3_PYTHON === undefined)(
    'refuses a key that is not UTF-8 text with 400 InvalidURI, storing nothing (boto3, raw bytes)',
    async () => {
      const got = await boto(
        `
import botocore
def code(f):
    try:
        f()
        return 'ok'
    except botocore.exceptions.ClientError as e:
        return [e.response['ResponseMetadata']['HTTPStatusCode'], e.response['Error']['Code'], e.response['Error']['Message']]
out({'get': code(lambda: s3.get_object(Bucket='${Bucket}', Key='\\xae\\x8a-')),
     'put': code(lambda: s3.put_object(Bucket='${Bucket}', Key='\\xae\\x8a-', Body=b'x')),
     'utf8': code(lambda: s3.put_object(Bucket='${Bucket}', Key='caf\\xe9', Body=b'x'))})
`,
      );
      const invalid = [400, 'InvalidURI', "Couldn't parse the specified URI."];
      expect(got).toEqual({ get: invalid, put: invalid, utf8: 'ok' });
      // Escaped bytes that are not UTF-8, and the same bytes sent raw.
      for (const path of ['%AE%8A-', '\xae\x8a-']) {
        const put = await rawRequest(scene.gw.url, await signedRaw('PUT', `/${Bucket}/${path}`, {}, 'x'));
        expect(put.status).toBe(400);
        expect(put.body).toContain('<Code>InvalidURI</Code>');
      }
    },
  );

  it.skipIf(BOTO3_PYTHON === undefined)(
    'verifies and stores a POST object x-amz-checksum-* field; a wrong one stores nothing (boto3 presigned POST)',
    async () => {
      const got = await boto(
        `
import base64, hashlib, urllib.request, uuid
b = '${Bucket}'
body = b'posted bytes'
def post(key, checksum):
    p = s3.generate_presigned_post(b, key, Conditions=[['starts-with', '$key', 'post-']])
    fields = dict(p['fields'])
    fields['x-amz-checksum-sha256'] = checksum
    boundary = uuid.uuid4().hex
    parts = b''.join(b'--%s\\r\\nContent-Disposition: form-data; name="%s"\\r\\n\\r\\n%s\\r\\n'
                     % (boundary.encode(), k.encode(), v.encode()) for k, v in fields.items())
    parts += b'--%s\\r\\nContent-Disposition: form-data; name="file"; filename="f"\\r\\n\\r\\n%s\\r\\n--%s--\\r\\n' % (
        boundary.encode(), body, boundary.encode())
    req = urllib.request.Request(p['url'], data=parts, method='POST',
        headers={'Content-Type': 'multipart/form-data; boundary=' + boundary})
    try:
        return urllib.request.urlopen(req).status
    except urllib.error.HTTPError as e:
        return e.code
def stored(key):
    try:
        return s3.head_object(Bucket=b, Key=key, ChecksumMode='ENABLED').get('ChecksumSHA256')
    except botocore.exceptions.ClientError as e:
        return e.response['Error']['Code']
import botocore
good = base64.b64encode(hashlib.sha256(body).digest()).decode()
wrong = base64.b64encode(hashlib.sha256(b'other').digest()).decode()
out({'good': [post('post-good', good), stored('post-good')],
     'wrong': [post('post-wrong', wrong), stored('post-wrong')],
     'garbage': [post('post-garbage', 'sailorjerry'), stored('post-garbage')], 'sha': good})
`,
      );
      const r = got as Record<string, unknown>;
      expect(r.good).toEqual([204, r.sha]);
      expect(r.wrong).toEqual([400, '404']);
      expect(r.garbage).toEqual([400, '404']);
    },
  );

  it('answers a SigV2 PUT whose body ends before Content-Length with 400 IncompleteBody, storing nothing', async () => {
    const key = 'v2-short';
    const date = new Date().toUTCString();
    const signature = sigV2(MAIN.secret, `PUT\n\n\n${date}\n/${Bucket}/${key}`);
    const request = Buffer.from(
      `PUT /${Bucket}/${key} HTTP/1.1\r\nHost: gw\r\nDate: ${date}\r\n` +
        `Authorization: AWS ${MAIN.access}:${signature}\r\nContent-Length: 10\r\n\r\nabc`,
    );
    const res = await rawRequest(scene.gw.url, request, true);
    expect(res.status).toBe(400);
    expect(res.body).toContain('<Code>IncompleteBody</Code>');
    const head = await main
      .send(new HeadObjectCommand({ Bucket, Key: key }))
      .catch((e: { name: string }) => e.name);
    expect(head).toBe('NotFound');
  });

  /**
   * A SigV4-signed raw request (UNSIGNED-PAYLOAD). Header values and the path are latin1 strings,
   * one character per byte on the wire, so any bytes can be sent.
   */
  async function signedRaw(method: string, rawPath: string, headers: Record<string, string> = {}, body = '') {
    const signed = await signHeaders({
      baseUrl: scene.gw.url,
      credentials: MAIN,
      method,
      path: rawPath,
      headers,
      payloadHash: 'UNSIGNED-PAYLOAD',
    });
    const all = { ...signed, 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
    const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`);
    return Buffer.from(`${method} ${rawPath} HTTP/1.1\r\n${lines.join('')}\r\n${body}`, 'latin1');
  }
});

function sigV2(secret: string, stringToSign: string): string {
  return createHmac('sha1', secret).update(stringToSign).digest('base64');
}
