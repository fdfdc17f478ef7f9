// The replay window of every way a request can be signed (issue 30, item 2), on the built
// gateway: a captured request stops working as S3's does. Header SigV4 and header SigV2: the
// signing time (X-Amz-Date / Date) within 15 minutes of the gateway's clock either way, else 403
// RequestTimeTooSkewed. Presigned SigV4: from X-Amz-Date for X-Amz-Expires seconds (not before,
// beyond 15 minutes of skew), so a URL signed two hours ago for one hour is expired and one
// signed for three hours still works. Presigned SigV2: until its Expires. POST forms: until the
// policy's expiration. Each stale request is refused and its fresh twin served.
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import {
  type GatewayProcess,
  presignUrl,
  ROOT_CREDENTIALS,
  s3Answer,
  sha256Hex,
  signHeaders,
} from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { presignV2Query, signV2Headers } from './helpers/sigv2.js';

const MINUTE = 60_000;
const PATH = '/window/k';

let gw: GatewayProcess;
let root: S3Client;

const ago = (ms: number) => new Date(Date.now() - ms);

const test = sceneTest({ buckets: ['window'] });
test.beforeAll(async ({ scene }) => {
  ({ gw, s3: root } = scene);
  await root.send(new PutObjectCommand({ Bucket: 'window', Key: 'k', Body: 'content' }));
});

describe('replay window', () => {
  it('header SigV4: signed 16 minutes ago or ahead is RequestTimeTooSkewed; 14 minutes ago is served', async () => {
    const get = async (signingDate: Date) => {
      const headers = await signHeaders({
        baseUrl: gw.url,
        credentials: ROOT_CREDENTIALS,
        method: 'GET',
        path: PATH,
        payloadHash: sha256Hex(''),
        signingDate,
      });
      return s3Answer(await fetch(new URL(PATH, gw.url), { headers }));
    };
    for (const when of [ago(16 * MINUTE), ago(-16 * MINUTE)]) {
      const stale = await get(when);
      expect([stale.status, stale.code], stale.text).toEqual([403, 'RequestTimeTooSkewed']);
    }
    expect(await get(ago(14 * MINUTE))).toMatchObject({ status: 200, text: 'content' });
  });

  it('presigned SigV4: expired after X-Amz-Expires, not valid before X-Amz-Date, served within its lifetime', async () => {
    const get = async (signingDate: Date, expiresIn: number) =>
      s3Answer(
        await fetch(
          await presignUrl({
            baseUrl: gw.url,
            credentials: ROOT_CREDENTIALS,
            method: 'GET',
            path: PATH,
            signingDate,
            expiresIn,
          }),
        ),
      );
    expect(await get(ago(120 * MINUTE), 3600)).toMatchObject({
      status: 403,
      code: 'AccessDenied',
      message: 'Request has expired.',
    });
    expect(await get(ago(-20 * MINUTE), 3600)).toMatchObject({
      status: 403,
      code: 'AccessDenied',
      message: 'Request is not valid yet.',
    });
    // A URL's lifetime, not the 15-minute skew, bounds it (as in S3).
    expect(await get(ago(120 * MINUTE), 3 * 3600)).toMatchObject({ status: 200, text: 'content' });
  });

  it('header SigV2: a Date 16 minutes off is RequestTimeTooSkewed; a current one is served', async () => {
    const get = async (date: Date) =>
      s3Answer(
        await fetch(new URL(PATH, gw.url), {
          headers: signV2Headers(ROOT_CREDENTIALS, { method: 'GET', resource: PATH }, date),
        }),
      );
    for (const when of [ago(16 * MINUTE), ago(-16 * MINUTE)]) {
      const stale = await get(when);
      expect([stale.status, stale.code], stale.text).toEqual([403, 'RequestTimeTooSkewed']);
    }
    expect(await get(new Date())).toMatchObject({ status: 200, text: 'content' });
  });

  it('presigned SigV2: refused once Expires has passed, served before', async () => {
    const get = async (expires: Date) =>
      s3Answer(
        await fetch(
          new URL(
            `${PATH}?${presignV2Query(ROOT_CREDENTIALS, { method: 'GET', resource: PATH }, expires)}`,
            gw.url,
          ),
        ),
      );
    expect(await get(ago(MINUTE))).toMatchObject({
      status: 403,
      code: 'AccessDenied',
      message: 'Request has expired.',
    });
    expect(await get(ago(-10 * MINUTE))).toMatchObject({ status: 200, text: 'content' });
  });

  it('POST form: refused once the policy has expired, stored before', async () => {
    const post = async (Expires: number, Key: string) => {
      // The presigned-post package pins its own client-s3 copy; the config it reads is the same.
      const { url, fields } = await createPresignedPost(root as never, { Bucket: 'window', Key, Expires });
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('file', new Blob(['from a form']), 'f.txt');
      return s3Answer(await fetch(url, { method: 'POST', body: form }));
    };
    const late = await post(-60, 'late');
    expect([late.status, late.code, late.message]).toEqual([
      403,
      'AccessDenied',
      'Invalid according to Policy: Policy expired.',
    ]);
    expect((await post(600, 'on-time')).status).toBe(204);
  });
});
