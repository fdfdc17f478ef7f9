// versitygw's account roles over a real gateway: a plain `user` may not create buckets (403
// AccessDenied, nothing created), `userplus` and admin may, and a role changed through the
// admin API applies to the next request.
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Client } from './support/harness.js';
import { errorName, type MultiUserGateway, ROOT, startMultiUser } from './support/multi-user.js';
import { xmlField } from './support/raw-http.js';
import { signedRaw } from './support/signed-raw.js';

const CAROL = { access: 'CAROLKEY', secret: 'carol-secret' };

describe('account roles', () => {
  let gw: MultiUserGateway;
  const admin = (path: string, body: string) =>
    signedRaw(gw.url, ROOT.access, ROOT.secret, { method: 'PATCH', path, body });
  beforeAll(async () => {
    gw = await startMultiUser();
  });
  afterAll(async () => gw.close());

  it('lets only admin and userplus accounts create buckets', async () => {
    const created = await admin(
      '/create-user',
      `<Account><Access>${CAROL.access}</Access><Secret>${CAROL.secret}</Secret><Role>user</Role></Account>`,
    );
    expect(created.status).toBe(201);
    const carol = s3Client(gw.url, CAROL.access, CAROL.secret);
    try {
      const refused = await signedRaw(gw.url, CAROL.access, CAROL.secret, { method: 'PUT', path: '/carols' });
      expect([refused.status, xmlField(refused.body, 'Code')]).toEqual([403, 'AccessDenied']);
      expect(await errorName(gw.root.send(new HeadBucketCommand({ Bucket: 'carols' })))).toBe('NotFound');

      const upd = await admin(
        `/update-user?access=${CAROL.access}`,
        '<MutableProps><Role>userplus</Role></MutableProps>',
      );
      expect(upd.status).toBe(200);
      expect(await errorName(carol.send(new CreateBucketCommand({ Bucket: 'carols' })))).toBe('');
      expect(await errorName(gw.root.send(new CreateBucketCommand({ Bucket: 'roots' })))).toBe('');
    } finally {
      carol.destroy();
    }
  });
});
