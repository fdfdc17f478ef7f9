// The declarative scene against the built app: sceneTest's fixtures (a gateway with a user and a
// bucket, the root client, a client per user, the AWS CLI) are one gateway shared by the file's
// tests; a second sceneTest is a second gateway; expectS3Error passes on the named code and status
// and fails the test otherwise; startScene's stop() leaves no process and no folder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, ListBucketsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect } from 'vitest';
import { AWS_BIN, startScene } from '../src/index.js';
import { expectS3Error, sceneTest } from '../src/scene/index.js';

const BOB = { access: 'scene-bob', secret: 'scene-bob-secret' };

const test = sceneTest({ users: { bob: BOB }, buckets: ['scene-bucket'] });
const other = sceneTest({ globalArgs: ['--readonly'] });
let givenDir: string | undefined;
const fromDir = sceneTest((dir) => {
  givenDir = dir;
  return { globalArgs: ['--access-log', join(dir, 'access.log')] };
});

let firstUrl: string | undefined;

describe('sceneTest', { timeout: 60_000 }, () => {
  test.beforeAll(async ({ url }) => {
    firstUrl = url;
  });

  test('the root client sees the scene bucket; the user is refused by the ACL', async ({ s3, clients }) => {
    const { Buckets = [] } = await s3.send(new ListBucketsCommand({}));
    expect(Buckets.map((b) => b.Name)).toEqual(['scene-bucket']);
    await s3.send(new PutObjectCommand({ Bucket: 'scene-bucket', Key: 'k', Body: 'v' }));
    const refused = await expectS3Error(
      clients.bob.send(new GetObjectCommand({ Bucket: 'scene-bucket', Key: 'k' })),
      'AccessDenied',
      403,
    );
    expect(refused.$metadata.httpStatusCode).toBe(403);
  });

  test('the fixtures are one gateway per file, started once', async ({ scene, url }) => {
    expect(url).toBe(firstUrl);
    expect(scene.url).toBe(url);
    expect(scene.iamDir && existsSync(scene.iamDir)).toBeTruthy();
    expect(scene.users.bob).toBe(BOB);
  });

  other('a second sceneTest is a second gateway', async ({ url, s3 }) => {
    expect(url).not.toBe(firstUrl);
    await expectS3Error(
      s3.send(new PutObjectCommand({ Bucket: 'read-only', Key: 'k', Body: 'v' })),
      'AccessDenied',
    );
  });

  fromDir('options may be a function of the scene folder', async ({ scene }) => {
    expect(scene.dir).toBe(givenDir);
    expect(scene.gw.stdout() + scene.gw.stderr()).toContain(join(scene.dir, 'access.log'));
  });

  test('expectS3Error fails on a success, another code or another status', async ({ s3 }) => {
    const listing = () => s3.send(new ListBucketsCommand({}));
    const missing = () => s3.send(new GetObjectCommand({ Bucket: 'scene-bucket', Key: 'none' }));
    await expect(expectS3Error(listing(), 'NoSuchKey')).rejects.toThrow(/the request succeeded/);
    await expect(expectS3Error(missing(), 'AccessDenied')).rejects.toThrow(/NoSuchKey/);
    await expect(expectS3Error(missing(), 'NoSuchKey', 400)).rejects.toThrow(/404/);
    await expectS3Error(missing(), 'NoSuchKey', 404);
  });

  test.skipIf(AWS_BIN === undefined)('aws runs the AWS CLI with the root account', async ({ aws }) => {
    const ls = await aws(['s3api', 'list-buckets', '--query', 'Buckets[].Name', '--output', 'text']);
    expect(ls).toMatchObject({ code: 0, stdout: 'scene-bucket\n' });
  });
});

describe('startScene', { timeout: 60_000 }, () => {
  test('stop() ends the gateway and removes its folders', async () => {
    const scene = await startScene({ versioning: true, iam: true });
    expect([scene.root, scene.dir, scene.versionDir].every((d) => d !== undefined && existsSync(d))).toBe(
      true,
    );
    await scene.stop();
    expect(scene.gw.child.exitCode ?? scene.gw.child.signalCode).not.toBeNull();
    expect([scene.root, scene.dir].some((d) => existsSync(d))).toBe(false);
  });
});
