// The admin API against replays (issue 30, items 2 and 6), on the built gateway with --iam-dir.
// An eavesdropper captures an admin request signed by root in each form that leaves part of the
// request unsigned — UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, a presigned URL, SigV2
// (header and URL, which sign neither the body nor `?access=` / `?owner=`) — and replays it with
// its own body or target to make itself admin, delete an account or take a bucket: every form
// is refused (403, saying why) and nothing changes. Header SigV4 over a signed body still works,
// and its captured requests cannot be bent (another body: XAmzContentSHA256Mismatch; another
// query: SignatureDoesNotMatch; 16 minutes later: RequestTimeTooSkewed). No answer carries a secret.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import {
  adminRequest,
  type Credentials,
  type IamUser,
  presignUrl,
  ROOT_CREDENTIALS,
  type S3Answer,
  type Scene,
  s3Answer,
  sha256Hex,
  signHeaders,
} from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect } from 'vitest';
import { presignV2Query, signV2Headers } from './helpers/sigv2.js';

const ALICE: IamUser = { access: 'alice-key', secret: 'alice-secret-0123456789', role: 'userplus' };
const MALLORY: IamUser = { access: 'mallory-key', secret: 'mallory-secret-0123456789' };
const XML = 'application/xml';

const test = sceneTest({ users: { alice: ALICE, mallory: MALLORY } });
let scene: Scene<'alice' | 'mallory'>;

async function send(
  url: URL | string,
  init: { method?: string; headers: Record<string, string>; body?: string },
): Promise<S3Answer> {
  const res = await fetch(new URL(url, scene.url), {
    method: init.method ?? 'PATCH',
    headers: init.headers,
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  return s3Answer(res);
}

/** Root's header-SigV4 signature over PATCH `path`?`query` with `payloadHash`. */
const rootHeaders = (
  path: string,
  query: Record<string, string>,
  payloadHash: string,
  extra: Record<string, string> = {},
  signingDate?: Date,
) =>
  signHeaders({
    baseUrl: scene.url,
    credentials: ROOT_CREDENTIALS,
    method: 'PATCH',
    path,
    query,
    payloadHash,
    headers: extra,
    ...(signingDate ? { signingDate } : {}),
  });

/** Root's presigned URL (ten minutes) for PATCH `path`?`query`. */
const rootPresigned = (path: string, query: Record<string, string>) =>
  presignUrl({
    baseUrl: scene.url,
    credentials: ROOT_CREDENTIALS,
    method: 'PATCH',
    path,
    query,
    expiresIn: 600,
  });

const withQuery = (path: string, query: Record<string, string>) => {
  const q = new URLSearchParams(query).toString();
  return q === '' ? path : `${path}?${q}`;
};

async function accounts(): Promise<Record<string, { role: string }>> {
  const doc = JSON.parse(await readFile(join(scene.iamDir as string, 'users.json'), 'utf8')) as {
    accessAccounts: Record<string, { role: string }>;
  };
  return doc.accessAccounts;
}

async function ownerOf(bucket: string): Promise<string | undefined> {
  const listed = await adminRequest(scene.url, ROOT_CREDENTIALS, 'list-buckets');
  expect(listed.status).toBe(200);
  const entry = [...listed.text.matchAll(/<Bucket>(.*?)<\/Bucket>/g)].find((m) =>
    m[1]?.includes(`<Name>${bucket}</Name>`),
  );
  return entry?.[1] === undefined ? undefined : /<Owner>([^<]*)<\/Owner>/.exec(entry[1])?.[1];
}

const makeAdmin = (access: string) =>
  `<Account><Access>${access}</Access><Secret>stolen-secret-0123456789</Secret><Role>admin</Role></Account>`;
const ROLE_ADMIN = '<MutableProps><Role>admin</Role></MutableProps>';

/** The refusal every weakly signed admin call gets: 403 AccessDenied, naming the admin API's rule and why. */
function expectRefused(a: S3Answer, why: RegExp): void {
  expect([a.status, a.code], a.text).toEqual([403, 'AccessDenied']);
  expect(a.message).toMatch(/admin API accepts only requests signed with AWS Signature Version 4/);
  expect(a.message).toMatch(why);
}

test.beforeAll(async ({ scene: started, clients }) => {
  scene = started;
  await clients.alice.send(new CreateBucketCommand({ Bucket: 'alice-bucket' }));
});

describe('admin requests whose body or target is not signed are refused', () => {
  test('UNSIGNED-PAYLOAD: a captured create-user replayed with an admin account in its body', async () => {
    const legit = `<Account><Access>carol-key</Access><Secret>carol-secret-0123456789</Secret><Role>user</Role></Account>`;
    const captured = await rootHeaders('/create-user', {}, 'UNSIGNED-PAYLOAD');
    expectRefused(await send('/create-user', { headers: captured, body: legit }), /UNSIGNED-PAYLOAD/);
    const replay = await send('/create-user', { headers: captured, body: makeAdmin('eve-key') });
    expectRefused(replay, /UNSIGNED-PAYLOAD/);
    const users = await accounts();
    expect(Object.keys(users)).not.toContain('eve-key');
    expect(Object.keys(users)).not.toContain('carol-key');
  });

  test('STREAMING-UNSIGNED-PAYLOAD-TRAILER: the chunked body is not signed either', async () => {
    const body = makeAdmin('eve-key');
    const chunked = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const headers = await rootHeaders('/create-user', {}, 'STREAMING-UNSIGNED-PAYLOAD-TRAILER', {
      'content-encoding': 'aws-chunked',
      'x-amz-decoded-content-length': String(Buffer.byteLength(body)),
    });
    expectRefused(
      await send('/create-user', { headers, body: chunked }),
      /STREAMING-UNSIGNED-PAYLOAD-TRAILER/,
    );
    expect(Object.keys(await accounts())).not.toContain('eve-key');
  });

  test('a presigned URL: its holder sends update-user with its own body (Role admin)', async () => {
    const url = await rootPresigned('/update-user', { access: MALLORY.access });
    const replay = await send(url, { headers: { 'content-type': XML }, body: ROLE_ADMIN });
    expectRefused(replay, /presigned URL/);
    expect((await accounts())[MALLORY.access]?.role).toBe('user');
  });

  test('a presigned change-bucket-owner URL (a route-table admin call) moves no bucket', async () => {
    const url = await rootPresigned('/change-bucket-owner', {
      bucket: 'alice-bucket',
      owner: MALLORY.access,
    });
    expectRefused(await send(url, { headers: {} }), /presigned URL/);
    expect(await ownerOf('alice-bucket')).toBe(ALICE.access);
  });

  test('SigV2 header: a captured update-user replayed with another ?access= and an admin role', async () => {
    // SigV2 signs the resource `/update-user` only: neither ?access= nor the body.
    const body = '<MutableProps><DisplayName>Alice</DisplayName></MutableProps>';
    const captured = signV2Headers(ROOT_CREDENTIALS, {
      method: 'PATCH',
      resource: '/update-user',
      contentType: XML,
    });
    expectRefused(
      await send(withQuery('/update-user', { access: ALICE.access }), { headers: captured, body }),
      /Signature Version 2/,
    );
    const replay = await send(withQuery('/update-user', { access: MALLORY.access }), {
      headers: captured,
      body: ROLE_ADMIN,
    });
    expectRefused(replay, /Signature Version 2/);
    expect((await accounts())[MALLORY.access]?.role).toBe('user');
  });

  test('SigV2 header: change-bucket-owner with the owner swapped', async () => {
    const captured = signV2Headers(ROOT_CREDENTIALS, { method: 'PATCH', resource: '/change-bucket-owner' });
    const replay = await send(
      withQuery('/change-bucket-owner', { bucket: 'alice-bucket', owner: MALLORY.access }),
      {
        headers: captured,
      },
    );
    expectRefused(replay, /Signature Version 2/);
    expect(await ownerOf('alice-bucket')).toBe(ALICE.access);
  });

  test('SigV2 URL: delete-user with the target swapped', async () => {
    const query = presignV2Query(
      ROOT_CREDENTIALS,
      { method: 'PATCH', resource: '/delete-user' },
      new Date(Date.now() + 600_000),
    );
    query.set('access', ALICE.access);
    expectRefused(await send(`/delete-user?${query}`, { headers: {} }), /Signature Version 2/);
    expect(Object.keys(await accounts())).toContain(ALICE.access);
  });

  test('list-users in any of these forms is refused too (reads are admin calls as well)', async () => {
    expectRefused(
      await send('/list-users', { headers: await rootHeaders('/list-users', {}, 'UNSIGNED-PAYLOAD') }),
      /UNSIGNED-PAYLOAD/,
    );
    expectRefused(
      await send('/list-users', {
        headers: signV2Headers(ROOT_CREDENTIALS, { method: 'PATCH', resource: '/list-users' }),
      }),
      /Signature Version 2/,
    );
  });
});

describe('header SigV4 over a signed body (what the admin CLI sends)', () => {
  test('is served, and its captured requests cannot be bent or replayed late', async () => {
    const body = `<Account><Access>dave-key</Access><Secret>dave-secret-0123456789</Secret><Role>user</Role></Account>`;
    const headers = await rootHeaders('/create-user', {}, sha256Hex(body), { 'content-type': XML });
    // Another body under the captured signature: the hash no longer matches, nothing is created.
    const bent = await send('/create-user', { headers, body: makeAdmin('eve-key') });
    expect([bent.status, bent.code], bent.text).toEqual([400, 'XAmzContentSHA256Mismatch']);
    expect(Object.keys(await accounts())).not.toContain('eve-key');
    // The request as signed works.
    const created = await send('/create-user', { headers, body });
    expect(created.status, created.text).toBe(201);
    expect((await accounts())['dave-key']?.role).toBe('user');

    // Another ?access= under a captured update-user signature: SignatureDoesNotMatch.
    const empty = sha256Hex('');
    const upd = await rootHeaders('/update-user', { access: 'dave-key' }, empty);
    const swapped = await send(withQuery('/update-user', { access: MALLORY.access }), { headers: upd });
    expect([swapped.status, swapped.code]).toEqual([403, 'SignatureDoesNotMatch']);

    // Signed 16 minutes ago: outside the replay window.
    const old = await rootHeaders(
      '/delete-user',
      { access: 'dave-key' },
      empty,
      {},
      new Date(Date.now() - 16 * 60_000),
    );
    const late = await send(withQuery('/delete-user', { access: 'dave-key' }), { headers: old });
    expect([late.status, late.code]).toEqual([403, 'RequestTimeTooSkewed']);
    expect(Object.keys(await accounts())).toContain('dave-key');

    // And a fresh delete-user does its job.
    const del = await rootHeaders('/delete-user', { access: 'dave-key' }, empty);
    expect((await send(withQuery('/delete-user', { access: 'dave-key' }), { headers: del })).status).toBe(
      200,
    );
    expect(Object.keys(await accounts())).not.toContain('dave-key');
  });

  test('a change-bucket-owner signed this way moves the bucket (and back)', async () => {
    const move = async (owner: Credentials) => {
      const query = { bucket: 'alice-bucket', owner: owner.access };
      const headers = await rootHeaders('/change-bucket-owner', query, sha256Hex(''));
      return send(withQuery('/change-bucket-owner', query), { headers });
    };
    expect((await move(MALLORY)).status).toBe(200);
    expect(await ownerOf('alice-bucket')).toBe(MALLORY.access);
    expect((await move(ALICE)).status).toBe(200);
    expect(await ownerOf('alice-bucket')).toBe(ALICE.access);
  });
});

describe('admin answers carry no secrets', () => {
  test('list-users names every account and role, and no <Secret> nor any secret value', async () => {
    const listed = await adminRequest(scene.url, ROOT_CREDENTIALS, 'list-users');
    expect(listed.status).toBe(200);
    const access = [...listed.text.matchAll(/<Access>([^<]*)<\/Access>/g)].map((m) => m[1]);
    expect(access).toEqual(expect.arrayContaining([ALICE.access, MALLORY.access]));
    expect(listed.text).toContain('<Role>userplus</Role>');
    expect(listed.text).not.toMatch(/<Secret>/i);
    for (const secret of [ALICE.secret, MALLORY.secret]) expect(listed.text).not.toContain(secret);
  });
});
