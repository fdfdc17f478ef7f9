// Accounts: the admin API (create/list/update/delete user, admin only) over a real gateway, the
// users.json it writes (versitygw's format), and a second IamStore on the same directory (another
// gateway) picking up changes without a restart.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetBucketAclCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutBucketAclCommand,
} from '@aws-sdk/client-s3';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IamStore } from '../src/iam/index.js';
import { ADMIN_ACCESS, ADMIN_SECRET, s3Client, startGateway } from './support/harness.js';
import { ALICE, BOB, errorName, type MultiUserGateway, ROOT, startMultiUser } from './support/multi-user.js';
import { xmlField } from './support/raw-http.js';
import { signedRaw } from './support/signed-raw.js';

const accountXml = (access: string, secret: string, role: string) =>
  `<Account><Access>${access}</Access><Secret>${secret}</Secret><Role>${role}</Role><UserID>7</UserID><GroupID>8</GroupID></Account>`;

describe('admin user API', () => {
  let gw: MultiUserGateway;
  const admin = (path: string, body?: string) =>
    signedRaw(gw.url, ROOT.access, ROOT.secret, {
      method: 'PATCH',
      path,
      ...(body === undefined ? {} : { body }),
    });
  beforeAll(async () => {
    gw = await startMultiUser();
  });
  afterAll(async () => gw.close());

  it('creates a user who can then sign requests, in versitygw users.json format', async () => {
    const before = s3Client(gw.url, 'CAROLKEY', 'carol-secret');
    expect(await errorName(before.send(new ListBucketsCommand({})))).toBe('InvalidAccessKeyId');
    const res = await admin('/create-user', accountXml('CAROLKEY', 'carol-secret', 'user'));
    expect(res.status).toBe(201);
    expect(await errorName(before.send(new ListBucketsCommand({})))).toBe('');
    before.destroy();
    const file = JSON.parse(await readFile(join(gw.iamDir, 'users.json'), 'utf8'));
    expect(file.accessAccounts.CAROLKEY).toEqual({
      access: 'CAROLKEY',
      secret: 'carol-secret',
      role: 'user',
      userID: 7,
      groupID: 8,
      projectID: 0,
    });
    const dup = await admin('/create-user', accountXml('CAROLKEY', 'x', 'user'));
    expect([dup.status, xmlField(dup.body, 'Code')]).toEqual([409, 'XAdminUserExists']);
    const badRole = await admin('/create-user', accountXml('DAVEKEY', 'x', 'boss'));
    expect([badRole.status, xmlField(badRole.body, 'Code')]).toEqual([400, 'XAdminInvalidArgument']);
  });

  it('lists, updates and deletes users; the old secret stops working after an update', async () => {
    const list = await admin('/list-users');
    expect(list.status).toBe(200);
    const listed = [...list.body.matchAll(/<Access>([^<]*)<\/Access>/g)].map((m) => m[1]);
    expect(listed).toEqual(expect.arrayContaining([ALICE.access, BOB.access, 'CAROLKEY']));

    const upd = await admin(
      '/update-user?access=CAROLKEY',
      '<MutableProps><Secret>new-secret</Secret><Role>admin</Role></MutableProps>',
    );
    expect(upd.status).toBe(200);
    const oldKey = s3Client(gw.url, 'CAROLKEY', 'carol-secret');
    const newKey = s3Client(gw.url, 'CAROLKEY', 'new-secret');
    expect(await errorName(oldKey.send(new ListBucketsCommand({})))).toBe('SignatureDoesNotMatch');
    expect(await errorName(newKey.send(new ListBucketsCommand({})))).toBe('');
    // Now an admin: may use the admin API itself.
    const byCarol = await signedRaw(gw.url, 'CAROLKEY', 'new-secret', {
      method: 'PATCH',
      path: '/list-users',
    });
    expect(byCarol.status).toBe(200);

    const missing = await admin(
      '/update-user?access=NOBODY',
      '<MutableProps><Secret>s</Secret></MutableProps>',
    );
    expect([missing.status, xmlField(missing.body, 'Code')]).toEqual([404, 'XAdminUserNotFound']);
    const del = await admin('/delete-user?access=CAROLKEY');
    expect(del.status).toBe(200);
    expect(await errorName(newKey.send(new ListBucketsCommand({})))).toBe('InvalidAccessKeyId');
    oldKey.destroy();
    newKey.destroy();
  });

  it('changes a bucket owner by versitygw query parameters; the new owner has access at once', async () => {
    await gw.alice.send(new CreateBucketCommand({ Bucket: 'handover' }));
    expect(await errorName(gw.bob.send(new ListObjectsV2Command({ Bucket: 'handover' })))).toBe(
      'AccessDenied',
    );
    const unknown = await admin('/change-bucket-owner?bucket=handover&owner=NOBODY');
    expect([unknown.status, xmlField(unknown.body, 'Code')]).toEqual([404, 'XAdminUserNotFound']);
    const moved = await admin(`/change-bucket-owner?bucket=handover&owner=${BOB.access}`);
    expect(moved.status).toBe(200);
    expect(await errorName(gw.bob.send(new ListObjectsV2Command({ Bucket: 'handover' })))).toBe('');
    expect(await errorName(gw.alice.send(new ListObjectsV2Command({ Bucket: 'handover' })))).toBe(
      'AccessDenied',
    );
    const list = await admin('/list-buckets');
    expect(list.body).toContain(`<Name>handover</Name><Owner>${BOB.access}</Owner>`);
  });

  it('keeps an optional display name and e-mail, shown in ACLs and resolving e-mail grants', async () => {
    const created = await admin(
      '/create-user',
      '<Account><Access>FAYKEY</Access><Secret>fay-secret</Secret><Role>userplus</Role><DisplayName>Fay F.</DisplayName></Account>',
    );
    expect(created.status).toBe(201);
    const upd = await admin(
      '/update-user?access=FAYKEY',
      '<MutableProps><Email>fay@example.com</Email></MutableProps>',
    );
    expect(upd.status).toBe(200);
    const file = JSON.parse(await readFile(join(gw.iamDir, 'users.json'), 'utf8'));
    expect(file.accessAccounts.FAYKEY).toMatchObject({ displayName: 'Fay F.', email: 'fay@example.com' });
    const list = await admin('/list-users');
    expect(list.body).toContain('<DisplayName>Fay F.</DisplayName><Email>fay@example.com</Email>');
    const fay = s3Client(gw.url, 'FAYKEY', 'fay-secret');
    await fay.send(new CreateBucketCommand({ Bucket: 'fays' }));
    await fay.send(
      new PutBucketAclCommand({ Bucket: 'fays', GrantFullControl: 'emailAddress="fay@example.com"' }),
    );
    const acl = await fay.send(new GetBucketAclCommand({ Bucket: 'fays' }));
    expect([
      acl.Owner?.DisplayName,
      acl.Grants?.[0]?.Grantee?.ID,
      acl.Grants?.[0]?.Grantee?.DisplayName,
    ]).toEqual(['Fay F.', 'FAYKEY', 'Fay F.']);
    fay.destroy();
  });

  it('refuses the admin API to plain users and anonymous callers', async () => {
    const res = await signedRaw(gw.url, ALICE.access, ALICE.secret, { method: 'PATCH', path: '/list-users' });
    expect([res.status, xmlField(res.body, 'Code')]).toEqual([403, 'XAdminAccessDenied']);
  });

  it('picks up users written by another gateway on the same directory', async () => {
    const other = await IamStore.open({ root: ROOT, dir: gw.iamDir });
    await other.createUser({
      access: 'ERINKEY',
      secret: 'erin',
      role: 'user',
      userID: 1,
      groupID: 1,
      projectID: 1,
    });
    const erin = s3Client(gw.url, 'ERINKEY', 'erin');
    expect(await errorName(erin.send(new ListBucketsCommand({})))).toBe('');
    await other.deleteUser('ERINKEY');
    expect(await errorName(erin.send(new ListBucketsCommand({})))).toBe('InvalidAccessKeyId');
    erin.destroy();
  });
});

describe('two stores on one directory', () => {
  it('loses no update when both write at once', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'gw-iam-'));
    try {
      const [a, b] = await Promise.all([
        IamStore.open({ root: ROOT, dir }),
        IamStore.open({ root: ROOT, dir }),
      ]);
      const user = (access: string) => ({
        access,
        secret: 's',
        role: 'user' as const,
        userID: 0,
        groupID: 0,
        projectID: 0,
      });
      await Promise.all([
        ...['A1', 'A2', 'A3'].map((k) => a.createUser(user(k))),
        ...['B1', 'B2', 'B3'].map((k) => b.createUser(user(k))),
      ]);
      const file = JSON.parse(await readFile(join(dir, 'users.json'), 'utf8'));
      expect(Object.keys(file.accessAccounts).sort()).toEqual(['A1', 'A2', 'A3', 'B1', 'B2', 'B3']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('single-user mode', () => {
  it('answers XAdminMethodNotSupported over HTTP when the gateway has no IAM directory', async () => {
    const gw = await startGateway(new MemoryBackend());
    try {
      const res = await signedRaw(gw.url, ADMIN_ACCESS, ADMIN_SECRET, {
        method: 'PATCH',
        path: '/list-users',
      });
      expect([res.status, xmlField(res.body, 'Code')]).toEqual([501, 'XAdminMethodNotSupported']);
    } finally {
      await gw.close();
    }
  });

  it('answers XAdminMethodNotSupported for user management without an IAM directory', async () => {
    const store = await IamStore.open({ root: ROOT });
    expect(await store.lookup(ROOT.access)).toMatchObject({ account: { role: 'admin' } });
    expect(await store.lookup(ALICE.access)).toBeUndefined();
    await expect(
      store.createUser({ ...ALICE, role: 'user', userID: 0, groupID: 0, projectID: 0 }),
    ).rejects.toMatchObject({ code: 'XAdminMethodNotSupported' });
  });
});
