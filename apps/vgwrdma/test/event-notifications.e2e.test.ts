// Bucket event notifications from the built gateway (--event-webhook-url) to a webhook receiver
// this test runs on loopback: the configuration round-trips through the AWS SDK; PUT, copy,
// multipart completion, POST forms, DELETE and DeleteObjects arrive as S3 event records with the
// right names and fields; prefix/suffix filters select; a receiver that fails twice still gets
// the event (retry); a receiver that never answers does not hold S3 requests up, and the bounded
// queue drops the oldest events (logged). Without the flag, configurations are refused.
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketNotificationConfigurationCommand,
  type NotificationConfiguration,
  PutBucketNotificationConfigurationCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { ROOT_CREDENTIALS, startScene } from '@vgwrdma/test-kit';
import { expectS3Error, sceneTest } from '@vgwrdma/test-kit/scene';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type EventReceiver,
  type EventRecordJson,
  startEventReceiver,
  startSilentReceiver,
} from './helpers/event-receiver.js';

const BUCKET = 'events';
const ALL: NotificationConfiguration = {
  QueueConfigurations: [
    {
      Id: 'everything',
      QueueArn: 'arn:aws:sqs:us-east-1:000000000000:all',
      Events: ['s3:ObjectCreated:*', 's3:ObjectRemoved:*'],
    },
  ],
};

let receiver: EventReceiver;
let client: S3Client;

const of = (name: string, key: string) => (r: EventRecordJson) =>
  r.eventName === name && r.s3.object.key === key;

/** The gateway sending every event of BUCKET to the receiver. */
const test = sceneTest(async () => {
  receiver = await startEventReceiver();
  return { globalArgs: ['--event-webhook-url', receiver.url], versioning: true, buckets: [BUCKET] };
});
/** A gateway without --event-webhook-url. */
const plain = sceneTest({ buckets: ['slow-events'] });
afterAll(() => receiver?.close());

describe('bucket event notifications', () => {
  test.beforeAll(async ({ s3 }) => {
    client = s3;
    await client.send(
      new PutBucketNotificationConfigurationCommand({ Bucket: BUCKET, NotificationConfiguration: ALL }),
    );
  });

  it('stores the configuration and answers it back', async () => {
    const got = await client.send(new GetBucketNotificationConfigurationCommand({ Bucket: BUCKET }));
    expect(got.QueueConfigurations).toEqual([
      {
        Id: 'everything',
        QueueArn: 'arn:aws:sqs:us-east-1:000000000000:all',
        Events: ['s3:ObjectCreated:*', 's3:ObjectRemoved:*'],
      },
    ]);
  });

  it('a PUT arrives as ObjectCreated:Put in the S3 event shape', async () => {
    const put = await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: 'dir/a b.txt', Body: 'hello events' }),
    );
    const r = await receiver.waitFor(of('ObjectCreated:Put', 'dir/a+b.txt'), 'Put dir/a b.txt');
    expect(r.eventVersion).toBe('2.1');
    expect(r.eventSource).toBe('aws:s3');
    expect(r.awsRegion).toBe('us-east-1');
    expect(Number.isNaN(Date.parse(r.eventTime))).toBe(false);
    expect(r.userIdentity.principalId).toBe(ROOT_CREDENTIALS.access);
    expect(r.requestParameters.sourceIPAddress).toBe('127.0.0.1');
    expect(r.responseElements['x-amz-request-id']).toMatch(/\S/);
    expect(r.s3.s3SchemaVersion).toBe('1.0');
    expect(r.s3.configurationId).toBe('everything');
    expect(r.s3.bucket).toEqual({
      name: BUCKET,
      ownerIdentity: { principalId: ROOT_CREDENTIALS.access },
      arn: `arn:aws:s3:::${BUCKET}`,
    });
    expect(r.s3.object.size).toBe('hello events'.length);
    expect(r.s3.object.eTag).toBe(put.ETag?.replace(/"/g, ''));
    expect(r.s3.object.sequencer).toMatch(/^[0-9A-F]+$/);
  });

  it('copy, multipart completion and POST forms are ObjectCreated:Copy / CompleteMultipartUpload / Post', async () => {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'src', Body: 'source bytes' }));
    await client.send(new CopyObjectCommand({ Bucket: BUCKET, Key: 'copied', CopySource: `${BUCKET}/src` }));
    const copy = await receiver.waitFor(of('ObjectCreated:Copy', 'copied'), 'Copy');
    expect(copy.s3.object.size).toBe('source bytes'.length);

    const part = Buffer.alloc(5 * 1024 * 1024, 7);
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'big' }));
    const p1 = await client.send(
      new UploadPartCommand({ Bucket: BUCKET, Key: 'big', UploadId, PartNumber: 1, Body: part }),
    );
    const p2 = await client.send(
      new UploadPartCommand({ Bucket: BUCKET, Key: 'big', UploadId, PartNumber: 2, Body: 'tail' }),
    );
    const done = await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: 'big',
        UploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: p1.ETag },
            { PartNumber: 2, ETag: p2.ETag },
          ],
        },
      }),
    );
    const mp = await receiver.waitFor(of('ObjectCreated:CompleteMultipartUpload', 'big'), 'Complete');
    expect(mp.s3.object.size).toBe(part.length + 4);
    expect(mp.s3.object.eTag).toBe(done.ETag?.replace(/"/g, ''));

    const form = await createPresignedPost(client as never, { Bucket: BUCKET, Key: 'posted' });
    const body = new FormData();
    for (const [k, v] of Object.entries(form.fields)) body.append(k, v);
    body.append('file', new Blob(['form bytes']), 'f.bin');
    const res = await fetch(form.url, { method: 'POST', body });
    expect(res.status).toBe(204);
    const post = await receiver.waitFor(of('ObjectCreated:Post', 'posted'), 'Post');
    expect(post.s3.object.size).toBe('form bytes'.length);
  });

  it('DELETE and DeleteObjects are ObjectRemoved:Delete, without size', async () => {
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'src' }));
    const del = await receiver.waitFor(of('ObjectRemoved:Delete', 'src'), 'Delete src');
    expect(del.s3.object.size).toBeUndefined();
    expect(del.s3.object.eTag).toBeUndefined();
    await client.send(
      new DeleteObjectsCommand({
        Bucket: BUCKET,
        Delete: { Objects: [{ Key: 'copied' }, { Key: 'posted' }] },
      }),
    );
    await receiver.waitFor(of('ObjectRemoved:Delete', 'copied'), 'Delete copied');
    await receiver.waitFor(of('ObjectRemoved:Delete', 'posted'), 'Delete posted');
  });

  it('versioned buckets: version ids, and a delete marker is ObjectRemoved:DeleteMarkerCreated', async () => {
    await client.send(new CreateBucketCommand({ Bucket: 'versioned' }));
    await client.send(
      new PutBucketVersioningCommand({ Bucket: 'versioned', VersioningConfiguration: { Status: 'Enabled' } }),
    );
    await client.send(
      new PutBucketNotificationConfigurationCommand({ Bucket: 'versioned', NotificationConfiguration: ALL }),
    );
    const put = await client.send(new PutObjectCommand({ Bucket: 'versioned', Key: 'v', Body: 'one' }));
    const created = await receiver.waitFor(
      (r) => r.s3.bucket.name === 'versioned' && r.eventName === 'ObjectCreated:Put',
      'versioned Put',
    );
    expect(created.s3.object.versionId).toBe(put.VersionId);
    const del = await client.send(new DeleteObjectCommand({ Bucket: 'versioned', Key: 'v' }));
    expect(del.DeleteMarker).toBe(true);
    const marker = await receiver.waitFor(
      (r) => r.s3.bucket.name === 'versioned' && r.eventName === 'ObjectRemoved:DeleteMarkerCreated',
      'DeleteMarkerCreated',
    );
    expect(marker.s3.object.versionId).toBe(del.VersionId);
    // Deleting a version itself removes it: ObjectRemoved:Delete with that version.
    await client.send(new DeleteObjectCommand({ Bucket: 'versioned', Key: 'v', VersionId: put.VersionId }));
    const gone = await receiver.waitFor(
      (r) => r.s3.bucket.name === 'versioned' && r.eventName === 'ObjectRemoved:Delete',
      'versioned Delete',
    );
    expect(gone.s3.object.versionId).toBe(put.VersionId);
  });

  it('filters by key prefix and suffix, per configuration', async () => {
    await client.send(new CreateBucketCommand({ Bucket: 'filtered' }));
    await client.send(
      new PutBucketNotificationConfigurationCommand({
        Bucket: 'filtered',
        NotificationConfiguration: {
          TopicConfigurations: [
            {
              Id: 'jpegs',
              TopicArn: 'arn:aws:sns:us-east-1:000000000000:images',
              Events: ['s3:ObjectCreated:Put'],
              Filter: {
                Key: {
                  FilterRules: [
                    { Name: 'prefix', Value: 'images/' },
                    { Name: 'suffix', Value: '.jpg' },
                  ],
                },
              },
            },
            { Id: 'all', TopicArn: 'arn:aws:sns:us-east-1:000000000000:all', Events: ['s3:ObjectCreated:*'] },
          ],
        },
      }),
    );
    const keys = ['images/a.png', 'docs/b.jpg', 'images/c.jpg', 'last'];
    for (const Key of keys) await client.send(new PutObjectCommand({ Bucket: 'filtered', Key, Body: Key }));
    const inFiltered = (r: EventRecordJson) => r.s3.bucket.name === 'filtered';
    for (const key of keys)
      await receiver.waitFor(
        (r) => inFiltered(r) && r.s3.configurationId === 'all' && r.s3.object.key === key,
        key,
      );
    await receiver.waitFor((r) => inFiltered(r) && r.s3.configurationId === 'jpegs', 'jpegs');
    const jpegs = receiver.accepted.filter((r) => inFiltered(r) && r.s3.configurationId === 'jpegs');
    expect(jpegs.map((r) => r.s3.object.key)).toEqual(['images/c.jpg']);
  });

  it('retries: a receiver that fails twice then answers gets the event', async () => {
    receiver.failNext(2);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'retried', Body: 'x' }));
    await receiver.waitFor(of('ObjectCreated:Put', 'retried'), 'Put retried');
    const tries = receiver.attempts.filter((a) => a.includes('"key":"retried"'));
    expect(tries).toHaveLength(3);
    expect(new Set(tries).size).toBe(1);
  });

  it('refuses unknown events and bad filters with InvalidArgument', async () => {
    const refused = (cfg: NotificationConfiguration) =>
      client
        .send(
          new PutBucketNotificationConfigurationCommand({ Bucket: BUCKET, NotificationConfiguration: cfg }),
        )
        .then(
          () => '',
          (e: { name: string }) => e.name,
        );
    expect(
      await refused({
        QueueConfigurations: [{ QueueArn: 'arn:q', Events: ['s3:ObjectTeleported:*' as never] }],
      }),
    ).toBe('InvalidArgument');
    expect(
      await refused({
        QueueConfigurations: [
          {
            QueueArn: 'arn:q',
            Events: ['s3:ObjectCreated:*'],
            Filter: { Key: { FilterRules: [{ Name: 'middle' as never, Value: 'x' }] } },
          },
        ],
      }),
    ).toBe('InvalidArgument');
  });

  it('an empty configuration turns notifications off', async () => {
    await client.send(new CreateBucketCommand({ Bucket: 'quiet' }));
    await client.send(
      new PutBucketNotificationConfigurationCommand({ Bucket: 'quiet', NotificationConfiguration: ALL }),
    );
    await client.send(
      new PutBucketNotificationConfigurationCommand({ Bucket: 'quiet', NotificationConfiguration: {} }),
    );
    const got = await client.send(new GetBucketNotificationConfigurationCommand({ Bucket: 'quiet' }));
    expect(got.QueueConfigurations ?? []).toEqual([]);
    await client.send(new PutObjectCommand({ Bucket: 'quiet', Key: 'silent', Body: 'x' }));
    // A later event of another bucket arrives; none of 'quiet' ever does.
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'after-quiet', Body: 'x' }));
    await receiver.waitFor(of('ObjectCreated:Put', 'after-quiet'), 'after-quiet');
    expect(receiver.accepted.some((r) => r.s3.bucket.name === 'quiet')).toBe(false);
  });
});

describe('event delivery that cannot keep up', () => {
  it('a receiver that never answers does not hold S3 requests; the full queue drops the oldest', async () => {
    const silent = await startSilentReceiver();
    const slow = await startScene({
      globalArgs: ['--event-webhook-url', silent.url, '--event-queue-size', '3', '--event-max-attempts', '1'],
      buckets: ['slow-events'],
    });
    const c = slow.s3;
    try {
      await c.send(
        new PutBucketNotificationConfigurationCommand({
          Bucket: 'slow-events',
          NotificationConfiguration: ALL,
        }),
      );
      // 4 deliveries hang in flight, 3 wait; the rest push the oldest out. Every PUT still answers.
      for (let i = 0; i < 20; i++) {
        const out = await c.send(
          new PutObjectCommand({ Bucket: 'slow-events', Key: `k${i}`, Body: `v${i}` }),
        );
        expect(out.ETag).toBeDefined();
      }
      await expect.poll(() => slow.gw.stderr(), { timeout: 20_000 }).toContain('event queue full');
      expect(silent.requests()).toBeGreaterThan(0);
    } finally {
      await slow.stop();
      await silent.close();
    }
  });

  plain(
    'without --event-webhook-url a configuration is refused (no destination to validate)',
    async ({ s3: c }) => {
      const err = await expectS3Error(
        c.send(
          new PutBucketNotificationConfigurationCommand({
            Bucket: 'slow-events',
            NotificationConfiguration: ALL,
          }),
        ),
        'InvalidArgument',
      );
      expect(err.message).toContain('--event-webhook-url');
      const got = await c.send(new GetBucketNotificationConfigurationCommand({ Bucket: 'slow-events' }));
      expect(got.QueueConfigurations ?? []).toEqual([]);
    },
  );
});
