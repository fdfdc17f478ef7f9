// Versioning (--versioning-dir) and object lock on the built gateway, driven by the AWS CLI v2
// (`s3api`) and the SDK: versions, delete markers, suspended buckets' null versions, retention,
// governance bypass, legal hold, and compliance mode that nothing bypasses.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  type S3Client,
  type S3ServiceException,
} from '@aws-sdk/client-s3';
import { expectS3Error, rejectionOf, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { AWS_BIN, type AwsRunner } from './helpers/aws-cli.js';

if (AWS_BIN === undefined) console.warn('versioning/lock CLI tests skipped: no aws binary');

const LOCKED_MESSAGE = 'Access Denied because object protected by object lock.';

const test = sceneTest({ versioning: true });

describe('vgwrdma versioning and object lock', { timeout: 120_000 }, () => {
  let work: string;
  let aws: AwsRunner;
  let sdk: S3Client;

  /** `aws s3api ...` parsed as JSON ('' → {}), failing with stderr on a non-zero exit. */
  async function s3api<T = Record<string, unknown>>(command: string, ...values: string[]): Promise<T> {
    const args = [...command.split(' '), ...values];
    const r = await aws(['s3api', ...args, '--output', 'json']);
    if (r.code !== 0) throw new Error(`aws s3api ${args.join(' ')} exited ${r.code}:\n${r.stderr}`);
    return (r.stdout.trim() === '' ? {} : JSON.parse(r.stdout)) as T;
  }
  /** The S3 error code of a CLI call that must fail. */
  async function cliError(command: string, ...values: string[]): Promise<string> {
    const r = await aws(['s3api', ...command.split(' '), ...values]);
    expect(r.code).not.toBe(0);
    return /An error occurred \(([^)]+)\)/.exec(r.stderr)?.[1] ?? r.stderr;
  }

  test.beforeAll(async ({ scene }) => {
    work = scene.dir;
    sdk = scene.s3;
    if (AWS_BIN !== undefined) aws = await scene.aws();
    await writeFile(join(work, 'one.txt'), 'one');
    await writeFile(join(work, 'two.txt'), 'two');
  });

  it.skipIf(AWS_BIN === undefined)('keeps versions and delete markers (AWS CLI s3api)', async () => {
    const Bucket = 'cli-versions';
    await sdk.send(new CreateBucketCommand({ Bucket }));
    await s3api('put-bucket-versioning --bucket', Bucket, '--versioning-configuration', 'Status=Enabled');
    const put = (file: string) =>
      s3api<{ VersionId: string }>('put-object --bucket', Bucket, '--key', 'doc', '--body', join(work, file));
    const v1 = (await put('one.txt')).VersionId;
    const v2 = (await put('two.txt')).VersionId;
    expect(v1).not.toBe(v2);

    const listed = await s3api<{ Versions: { VersionId: string; IsLatest: boolean }[] }>(
      'list-object-versions --bucket',
      Bucket,
    );
    expect(listed.Versions.map((v) => [v.VersionId, v.IsLatest])).toEqual([
      [v2, true],
      [v1, false],
    ]);
    const out = join(work, 'got-v1');
    const got = await s3api<{ VersionId: string }>(
      'get-object --bucket',
      Bucket,
      '--key',
      'doc',
      '--version-id',
      v1,
      out,
    );
    expect([got.VersionId, await readFile(out, 'utf8')]).toEqual([v1, 'one']);

    const marker = await s3api<{ DeleteMarker: boolean; VersionId: string }>(
      'delete-object --bucket',
      Bucket,
      '--key',
      'doc',
    );
    expect(marker.DeleteMarker).toBe(true);
    expect(await cliError('get-object --bucket', Bucket, '--key', 'doc', join(work, 'gone'))).toBe(
      'NoSuchKey',
    );
    // The 404 names the marker in its headers.
    const gone = await fetchSigned(sdk, Bucket, 'doc');
    expect([gone.status, gone.deleteMarker]).toEqual([404, 'true']);

    await s3api('delete-object --bucket', Bucket, '--key', 'doc', '--version-id', marker.VersionId);
    const head = await sdk.send(new HeadObjectCommand({ Bucket, Key: 'doc' }));
    expect(head.VersionId).toBe(v2);
  });

  it('keeps versions with the SDK; a suspended bucket overwrites its null version', async () => {
    const Bucket = 'sdk-versions';
    await sdk.send(new CreateBucketCommand({ Bucket }));
    await sdk.send(
      new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    const v1 = (await sdk.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'a' }))).VersionId;
    const del = await sdk.send(new DeleteObjectCommand({ Bucket, Key: 'k' }));
    expect(del.DeleteMarker).toBe(true);
    const missing = await expectS3Error(sdk.send(new GetObjectCommand({ Bucket, Key: 'k' })), 'NoSuchKey');
    expect(missing.$response?.headers['x-amz-delete-marker']).toBe('true');
    const old = await sdk.send(new GetObjectCommand({ Bucket, Key: 'k', VersionId: v1 }));
    expect(await old.Body?.transformToString()).toBe('a');

    await sdk.send(
      new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Suspended' } }),
    );
    for (const Body of ['b', 'c']) {
      const put = await sdk.send(new PutObjectCommand({ Bucket, Key: 'k', Body }));
      // The write makes the null version, which S3 does not announce (no x-amz-version-id).
      expect(put.VersionId).toBeUndefined();
    }
    const current = await sdk.send(new GetObjectCommand({ Bucket, Key: 'k', VersionId: 'null' }));
    expect(await current.Body?.transformToString()).toBe('c');
    const list = await sdk.send(new ListObjectVersionsCommand({ Bucket }));
    expect(list.Versions?.map((v) => v.VersionId)).toEqual(['null', v1]);
    expect(list.DeleteMarkers?.length).toBe(1);
  });

  it.skipIf(AWS_BIN === undefined)(
    'holds locked versions: governance (bypassable), legal hold, compliance',
    async () => {
      const Bucket = 'locked';
      await s3api('create-bucket --bucket', Bucket, '--object-lock-enabled-for-bucket');
      const until = new Date(Date.now() + 3_600_000).toISOString();
      const put = async (Key: string) =>
        (await sdk.send(new PutObjectCommand({ Bucket, Key, Body: Key }))).VersionId ?? '';

      const gov = await put('governed');
      await s3api(
        'put-object-retention',
        '--bucket',
        Bucket,
        '--key',
        'governed',
        '--version-id',
        gov,
        '--retention',
        `Mode=GOVERNANCE,RetainUntilDate=${until}`,
      );
      const retention = await s3api<{ Retention: { Mode: string } }>(
        'get-object-retention --bucket',
        Bucket,
        '--key',
        'governed',
        '--version-id',
        gov,
      );
      expect(retention.Retention.Mode).toBe('GOVERNANCE');
      expect(await cliError('delete-object --bucket', Bucket, '--key', 'governed', '--version-id', gov)).toBe(
        'AccessDenied',
      );
      await s3api(
        'delete-object --bucket',
        Bucket,
        '--key',
        'governed',
        '--version-id',
        gov,
        '--bypass-governance-retention',
      );
      await expectS3Error(
        sdk.send(new HeadObjectCommand({ Bucket, Key: 'governed', VersionId: gov })),
        'NotFound',
        404,
      );

      const held = await put('held');
      await sdk.send(
        new PutObjectLegalHoldCommand({ Bucket, Key: 'held', VersionId: held, LegalHold: { Status: 'ON' } }),
      );
      const refused = await expectS3Error(
        sdk.send(
          new DeleteObjectCommand({ Bucket, Key: 'held', VersionId: held, BypassGovernanceRetention: true }),
        ),
        'AccessDenied',
      );
      expect(refused.message).toBe(LOCKED_MESSAGE);
      await sdk.send(
        new PutObjectLegalHoldCommand({ Bucket, Key: 'held', VersionId: held, LegalHold: { Status: 'OFF' } }),
      );
      await sdk.send(new DeleteObjectCommand({ Bucket, Key: 'held', VersionId: held }));

      const comp = await put('compliant');
      await sdk.send(
        new PutObjectRetentionCommand({
          Bucket,
          Key: 'compliant',
          VersionId: comp,
          Retention: { Mode: 'COMPLIANCE', RetainUntilDate: new Date(until) },
        }),
      );
      const bypass = await expectS3Error(
        sdk.send(
          new DeleteObjectCommand({
            Bucket,
            Key: 'compliant',
            VersionId: comp,
            BypassGovernanceRetention: true,
          }),
        ),
        'AccessDenied',
      );
      expect(bypass.message).toBe(LOCKED_MESSAGE);
      await expectS3Error(
        sdk.send(
          new PutObjectRetentionCommand({
            Bucket,
            Key: 'compliant',
            VersionId: comp,
            BypassGovernanceRetention: true,
            Retention: { Mode: 'GOVERNANCE', RetainUntilDate: new Date(until) },
          }),
        ),
        'AccessDenied',
      );
      const still = await sdk.send(new GetObjectCommand({ Bucket, Key: 'compliant', VersionId: comp }));
      expect(await still.Body?.transformToString()).toBe('compliant');
    },
  );
});

/** A GET by the SDK's signer whose raw 404 headers are read (the CLI hides them). */
async function fetchSigned(
  client: S3Client,
  Bucket: string,
  Key: string,
): Promise<{ status: number; deleteMarker: string | undefined }> {
  const err = await rejectionOf<S3ServiceException>(client.send(new GetObjectCommand({ Bucket, Key })));
  return {
    status: err.$metadata.httpStatusCode ?? 0,
    deleteMarker: err.$response?.headers['x-amz-delete-marker'],
  };
}
