// --sidecar keeps attributes as files; in versitygw's layout (<sidecar>/<bucket>/<key>/meta/<attr>)
// the key `meta/cors` made a directory where the bucket's CORS file lives, and every request to
// the bucket answered 500 EISDIR (issue 16 item 8). Performs that attack and its variants on the
// built gateway, and starts it on a tree written in the old layout (the converted tree is served).
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetBucketCorsCommand,
  GetBucketPolicyCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { corsPreflight, ROOT_CREDENTIALS, type Scene } from '@vgwrdma/test-kit';
import { appWorkDir, scenePool } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

const ORIGIN = 'http://app.example';
const CORS = {
  CORSRules: [
    { AllowedOrigins: [ORIGIN], AllowedMethods: ['GET'], AllowedHeaders: ['*'], MaxAgeSeconds: 60 },
  ],
};
const POLICY = JSON.stringify({
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::%B/public/*' },
  ],
});

/**
 * Every key shape that reaches attribute files in versitygw's layout: under `meta/` (the bucket's
 * attribute directory), `<folder>/meta/<attr>` (a folder object's), nested `meta/meta`, folder
 * keys ending in `/`, and keys named like the attribute files themselves.
 */
const ATTACK_KEYS = [
  'meta/cors',
  'meta/policy',
  'meta/acl/meta/etag',
  'meta/',
  'dir/',
  'dir/meta/etag',
  'dir/meta/content-type/',
  'a/meta/meta/cors',
  'meta~',
  'cors',
  'policy',
];

const work = appWorkDir('vgwrdma-sidecar-');
/** The gateways of a test, stopped after it. */
const startPooled = scenePool('each');
let gw: Scene | undefined;

async function start(root: string, sidecar: string): Promise<S3Client> {
  await mkdir(root, { recursive: true });
  gw = await startPooled({ root, posixArgs: ['--sidecar', sidecar] });
  return gw.s3;
}

async function body(c: S3Client, bucket: string, key: string): Promise<string> {
  const r = await c.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return (await r.Body?.transformToString()) ?? '';
}

/** The bucket answers its bucket operations, its CORS and policy, and a CORS preflight. */
async function expectBucketIntact(c: S3Client, bucket: string): Promise<void> {
  await c.send(new HeadBucketCommand({ Bucket: bucket }));
  const cors = await c.send(new GetBucketCorsCommand({ Bucket: bucket }));
  expect(cors.CORSRules?.[0]?.AllowedOrigins).toEqual([ORIGIN]);
  const policy = await c.send(new GetBucketPolicyCommand({ Bucket: bucket }));
  expect(JSON.parse(policy.Policy ?? '{}')).toEqual(JSON.parse(POLICY.replace('%B', bucket)));
  const preflight = await corsPreflight(`${gw?.url}/${bucket}/any`, ORIGIN);
  expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([200, ORIGIN]);
}

describe('--sidecar: keys that collide with attribute files in versitygw layout', () => {
  it.each([
    ['before the bucket is configured', 'attack-first'],
    ['after the bucket is configured', 'config-first'],
  ])('PUTs of every colliding key shape %s leave the bucket and the objects intact', async (_, bucket) => {
    const c = await start(join(work(), `${bucket}-root`), join(work(), `${bucket}-meta`));
    await c.send(new CreateBucketCommand({ Bucket: bucket }));
    const configure = async (): Promise<void> => {
      await c.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: CORS }));
      await c.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: POLICY.replace('%B', bucket) }));
    };
    if (bucket === 'config-first') await configure();
    for (const key of ATTACK_KEYS) {
      const data = key.endsWith('/') ? '' : `data of ${key}`;
      await c.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: `x/${key.length}` }),
      );
    }
    if (bucket === 'attack-first') await configure();

    await expectBucketIntact(c, bucket);
    for (const key of ATTACK_KEYS) {
      const head = await c.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      expect([key, head.ContentType]).toEqual([key, `x/${key.length}`]);
      expect(await body(c, bucket, key)).toBe(key.endsWith('/') ? '' : `data of ${key}`);
    }
    const listed = await c.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([...ATTACK_KEYS].sort());
  });
});

describe('--sidecar on a tree written in the old (versitygw) layout', () => {
  it('converts it at start: colliding keys keep their metadata and the bucket is configurable again', async () => {
    const root = join(work(), 'old-root');
    const sidecar = join(work(), 'old-meta');
    const bucket = 'legacy';
    const attr = async (rel: string, name: string, value: string): Promise<void> => {
      await mkdir(join(sidecar, rel, 'meta'), { recursive: true });
      await writeFile(join(sidecar, rel, 'meta', name), value);
    };
    const object = async (key: string, data: string): Promise<void> => {
      await mkdir(join(root, bucket, key, '..'), { recursive: true });
      await writeFile(join(root, bucket, key), data);
      await attr(`${bucket}/${key}`, 'etag', `"etag-of-${key.replaceAll('/', '-')}"`);
      await attr(`${bucket}/${key}`, 'content-type', `type/${key.replaceAll('/', '-')}`);
    };
    await mkdir(join(root, bucket), { recursive: true });
    await attr(bucket, 'acl', JSON.stringify({ Owner: ROOT_CREDENTIALS.access, Grantees: [] }));
    await object('plain.txt', 'plain');
    await object('meta/cors', 'the attack'); // its attributes sit in <sidecar>/legacy/meta/cors/
    await object('docs/meta/readme', 'nested');

    const c = await start(root, sidecar);
    for (const key of ['plain.txt', 'meta/cors', 'docs/meta/readme']) {
      const head = await c.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      expect([head.ETag, head.ContentType]).toEqual([
        `"etag-of-${key.replaceAll('/', '-')}"`,
        `type/${key.replaceAll('/', '-')}`,
      ]);
    }
    expect(await body(c, bucket, 'meta/cors')).toBe('the attack');
    await c.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: CORS }));
    await c.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: POLICY.replace('%B', bucket) }));
    await expectBucketIntact(c, bucket);
    // The bucket's attribute directory holds attribute files only.
    for (const name of await readdir(join(sidecar, bucket, 'meta'))) {
      expect([name, (await stat(join(sidecar, bucket, 'meta', name))).isFile()]).toEqual([name, true]);
    }
    // A second start finds the tree converted and serves the same.
    await gw?.gw.stop();
    const again = await start(root, sidecar);
    await expectBucketIntact(again, bucket);
    expect((await again.send(new HeadObjectCommand({ Bucket: bucket, Key: 'meta/cors' }))).ETag).toBe(
      '"etag-of-meta-cors"',
    );
  });
});
