// S3 compatibility of listings and CORS on the built gateway. Listings through boto3 (which asks
// for encoding-type=url on every listing and decodes what it knows to be encoded) and
// @aws-sdk/client-s3 (which asks for nothing): a control-character prefix comes back as sent,
// an empty continuation-token is echoed. CORS as a browser meets it (fetch, anonymous, with an
// Origin): AllowedOrigin wildcards at the start, middle or end, and the Access-Control-* headers
// on successes, 404s and refusals alike.
import {
  CreateBucketCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ROOT_CREDENTIALS } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOTO3_PYTHON, boto3Run } from './helpers/boto3.js';

const KEYS = ['foo/bar', 'foo/baz', 'quux'];
const test = sceneTest({ buckets: ['listing'] });

describe('vgwrdma S3 compatibility: listings and CORS', { timeout: 120_000 }, () => {
  let url: string;
  let root: S3Client;

  test.beforeAll(async ({ url: endpoint, s3 }) => {
    url = endpoint;
    root = s3;
    for (const Key of KEYS) await root.send(new PutObjectCommand({ Bucket: 'listing', Key, Body: Key }));
  });

  describe('listing', () => {
    const boto = (program: string) => boto3Run(url, ROOT_CREDENTIALS, program);

    it.skipIf(BOTO3_PYTHON === undefined)(
      'returns a control-character prefix as sent to boto3, in v1 and v2',
      async () => {
        const got = await boto(`
v1 = s3.list_objects(Bucket='listing', Prefix='\\n')
v2 = s3.list_objects_v2(Bucket='listing', Prefix='\\n')
foo = s3.list_objects(Bucket='listing', Prefix='foo/')
out({'v1': v1['Prefix'], 'v2': v2['Prefix'], 'v1Keys': len(v1.get('Contents', [])),
     'foo': foo['Prefix'], 'fooKeys': [o['Key'] for o in foo['Contents']]})
`);
        expect(got).toEqual({ v1: '\n', v2: '\n', v1Keys: 0, foo: 'foo/', fooKeys: ['foo/bar', 'foo/baz'] });
      },
    );

    it('percent-encodes the prefix only when encoding-type=url is asked', async () => {
      // The raw XML (the SDK's parser would trim a whitespace-only Prefix), read by presigned URL.
      const xml = async (EncodingType?: 'url') => {
        const command = new ListObjectsV2Command({
          Bucket: 'listing',
          Prefix: '\n',
          ...(EncodingType ? { EncodingType } : {}),
        });
        const res = await fetch(await getSignedUrl(root, command, { expiresIn: 60 }));
        expect(res.status).toBe(200);
        return res.text();
      };
      const plain = await xml();
      expect(plain).toContain('<Prefix>\n</Prefix>');
      expect(plain).not.toContain('EncodingType');
      const encoded = await xml('url');
      expect(encoded).toContain('<Prefix>%0A</Prefix>');
      expect(encoded).toContain('<EncodingType>url</EncodingType>');
    });

    it.skipIf(BOTO3_PYTHON === undefined)(
      'echoes an empty continuation-token and lists from the start',
      async () => {
        const got = await boto(`
r = s3.list_objects_v2(Bucket='listing', ContinuationToken='')
out({'token': r.get('ContinuationToken'), 'keys': [o['Key'] for o in r['Contents']]})
`);
        expect(got).toEqual({ token: '', keys: KEYS });
      },
    );
  });

  describe('CORS', () => {
    const Bucket = 'cors-wild';
    let base: string;

    beforeAll(async () => {
      base = `${url}/${Bucket}`;
      await root.send(new CreateBucketCommand({ Bucket, ACL: 'public-read' }));
      const rule = (AllowedMethods: string[], origin: string) => ({
        AllowedMethods,
        AllowedOrigins: [origin],
      });
      await root.send(
        new PutBucketCorsCommand({
          Bucket,
          CORSConfiguration: {
            CORSRules: [
              rule(['GET'], '*suffix'),
              rule(['GET'], 'start*end'),
              rule(['GET'], 'prefix*'),
              rule(['PUT'], '*.put'),
            ],
          },
        }),
      );
    });

    /** [status, Access-Control-Allow-Origin, Access-Control-Allow-Methods] of an anonymous request. */
    async function cors(
      url: string,
      init: { method?: string; headers?: Record<string, string> } = {},
    ): Promise<[number, string | null, string | null]> {
      const res = await fetch(url, init);
      await res.arrayBuffer();
      return [
        res.status,
        res.headers.get('access-control-allow-origin'),
        res.headers.get('access-control-allow-methods'),
      ];
    }
    const from = (origin: string, extra: Record<string, string> = {}) => ({ headers: { origin, ...extra } });

    it('matches AllowedOrigin wildcards at the start, in the middle and at the end', async () => {
      const allowed = ['foo.suffix', 'startend', 'start1end', 'start12end', 'prefix', 'prefix.suffix'];
      for (const origin of allowed) expect(await cors(base, from(origin))).toEqual([200, origin, 'GET']);
      for (const origin of ['foo.bar', 'foo.suffix.get', '0start12end', 'bla.prefix'])
        expect(await cors(base, from(origin))).toEqual([200, null, null]);
      expect(await cors(base)).toEqual([200, null, null]);
    });

    it('adds the headers to a 404 and to a refused write', async () => {
      const obj = `${base}/missing`;
      expect((await cors(obj, from('foo.suffix')))[1]).toBe('foo.suffix');
      // Anonymous writes are refused (403); the refusal still tells the browser what CORS allows.
      const put = (origin: string, extra: Record<string, string> = {}) =>
        cors(obj, { method: 'PUT', headers: { origin, 'content-length': '0', ...extra } });
      expect(await put('foo.put')).toEqual([403, 'foo.put', 'PUT']);
      expect(await put('foo.suffix', { 'access-control-request-method': 'GET' })).toEqual([
        403,
        'foo.suffix',
        'GET',
      ]);
      expect(await put('foo.suffix')).toEqual([403, null, null]);
    });

    it('answers preflights: 400 without Origin or method, 200 or 403 by the rules', async () => {
      const options = (headers: Record<string, string> = {}) => cors(base, { method: 'OPTIONS', headers });
      expect((await options())[0]).toBe(400);
      expect((await options({ origin: 'foo.suffix' }))[0]).toBe(400);
      const ok = { origin: 'foo.suffix', 'access-control-request-method': 'GET' };
      expect(await options(ok)).toEqual([200, 'foo.suffix', 'GET']);
      const put = { origin: 'foo.put', 'access-control-request-method': 'PUT' };
      expect(await options(put)).toEqual([200, 'foo.put', 'PUT']);
      const wrong = { origin: 'foo.suffix', 'access-control-request-method': 'PUT' };
      expect((await options(wrong))[0]).toBe(403);
    });
  });
});
