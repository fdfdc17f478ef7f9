// S3AccountStore against the built gateway in posix mode as the upstream: the accounts are one
// users.json object in the bucket (the --iam-dir format), and two stores (two gateways) creating
// accounts at the same time lose none of them — the conditional PUTs make the loser start again.
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  type GatewayProcess,
  iamAccount,
  killAllChildren,
  ROOT_CREDENTIALS,
  removeDir,
  s3Client,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3AccountStore, type S3StoreOptions } from '../../src/iam/s3-account-store.js';

describe('S3AccountStore (gateway posix upstream)', () => {
  let upstream: GatewayProcess;
  let client: S3Client;
  const stores: S3AccountStore[] = [];
  let n = 0;

  /** A fresh bucket and `count` stores on it. */
  async function storesOn(count: number): Promise<{ bucket: string; stores: S3AccountStore[] }> {
    const bucket = `iam-${++n}`;
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const opts: S3StoreOptions = {
      endpoint: upstream.url,
      region: 'us-east-1',
      bucket,
      access: ROOT_CREDENTIALS.access,
      secret: ROOT_CREDENTIALS.secret,
    };
    const made = await Promise.all(Array.from({ length: count }, () => S3AccountStore.open(opts)));
    stores.push(...made);
    return { bucket, stores: made };
  }

  async function objectText(bucket: string): Promise<string> {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'users.json' }));
    return (await out.Body?.transformToString()) ?? '';
  }

  beforeAll(async () => {
    upstream = await startGateway();
    client = s3Client(upstream.url, ROOT_CREDENTIALS);
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    client?.destroy();
    await upstream?.stop();
    killAllChildren();
    if (upstream) await removeDir(upstream.root);
  });

  it('keeps the accounts as users.json in the bucket, in the --iam-dir format', async () => {
    const {
      bucket,
      stores: [store],
    } = await storesOn(1);
    if (!store) throw new Error('no store');
    expect(await store.list()).toEqual([]);
    await store.create({ ...iamAccount('alice'), role: 'userplus', userID: 7 });
    const doc = JSON.parse(await objectText(bucket)) as { accessAccounts: Record<string, unknown> };
    expect(doc.accessAccounts).toEqual({
      alice: {
        access: 'alice',
        secret: 'alice-secret',
        role: 'userplus',
        userID: 7,
        groupID: 0,
        projectID: 0,
      },
    });
    await store.update('alice', { secret: 'changed' });
    expect((await store.get('alice'))?.secret).toBe('changed');
    await expect(store.create(iamAccount('alice'))).rejects.toMatchObject({ code: 'XAdminUserExists' });
    await expect(store.update('ghost', {})).rejects.toMatchObject({ code: 'XAdminUserNotFound' });
    await store.delete('alice');
    await expect(store.delete('alice')).rejects.toMatchObject({ code: 'XAdminUserNotFound' });
    expect(await store.list()).toEqual([]);
  });

  it('sees a document another writer put in the bucket', async () => {
    const {
      bucket,
      stores: [store],
    } = await storesOn(1);
    if (!store) throw new Error('no store');
    expect(await store.get('bob')).toBeUndefined();
    const body = JSON.stringify({ accessAccounts: { bob: { access: 'bob', secret: 'b', role: 'admin' } } });
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'users.json', Body: body }));
    expect(await store.get('bob')).toMatchObject({ access: 'bob', secret: 'b', role: 'admin' });
  });

  it('loses no account when two stores create accounts at the same time', async () => {
    const {
      bucket,
      stores: [a, b],
    } = await storesOn(2);
    if (!a || !b) throw new Error('no stores');
    const keys = Array.from({ length: 24 }, (_, i) => `user-${String(i).padStart(2, '0')}`);
    await Promise.all(keys.map((k, i) => (i % 2 === 0 ? a : b).create(iamAccount(k))));
    expect((await a.list()).map((u) => u.access)).toEqual(keys);
    expect((await b.list()).map((u) => u.access)).toEqual(keys);
    const doc = JSON.parse(await objectText(bucket)) as { accessAccounts: Record<string, unknown> };
    expect(Object.keys(doc.accessAccounts).sort()).toEqual(keys);
    // Concurrent updates and deletes of different accounts are kept too.
    await Promise.all([
      ...keys.slice(0, 6).map((k) => a.update(k, { secret: 'from-a' })),
      ...keys.slice(6, 12).map((k) => b.delete(k)),
    ]);
    const after = await b.list();
    expect(after.map((u) => u.access)).toEqual([...keys.slice(0, 6), ...keys.slice(12)]);
    expect(after.slice(0, 6).every((u) => u.secret === 'from-a')).toBe(true);
  });

  it('stops at open, naming the bucket and without the secret, when the bucket is not there', async () => {
    const err = await S3AccountStore.open({
      endpoint: upstream.url,
      region: 'us-east-1',
      bucket: 'no-such-iam-bucket',
      access: ROOT_CREDENTIALS.access,
      secret: ROOT_CREDENTIALS.secret,
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(
      /cannot read s3:\/\/no-such-iam-bucket\/users\.json at http:\/\/127\.0\.0\.1:\d+: NoSuchBucket/,
    );
    expect(err?.message).not.toContain(ROOT_CREDENTIALS.secret);
  });
});
