// Event delivery that does not fail silently, and survives a restart: the built gateway with
// --event-queue-dir and --event-webhook-secret PUTs an object while its webhook is down. Each
// failed send is logged at debug with the URL, bucket, key, event name and cause; /metrics counts
// the retries and the queue depth; the queued event is a file in the directory. The gateway is
// stopped, the webhook comes up, a new gateway on the same directory starts — and the event
// arrives, signed (X-Vgwrdma-Signature-256 = HMAC-SHA256 of the body), and the directory empties.
// A gateway that gives up logs it at warn with the same fields.
import { createHmac } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import {
  CreateBucketCommand,
  PutBucketNotificationConfigurationCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import {
  freePort,
  type GatewayProcess,
  makeTempDir,
  ROOT_CREDENTIALS,
  removeDir,
  s3Client,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { type EventReceiver, startEventReceiver } from './helpers/event-receiver.js';

const SECRET = 'event-webhook-secret-0123';
const CONFIG = {
  QueueConfigurations: [
    {
      Id: 'all',
      QueueArn: 'arn:aws:sqs:us-east-1:000000000000:all',
      Events: ['s3:ObjectCreated:*' as const],
    },
  ],
};

/**
 * How long a poll waits for a state to settle: vitest's default (1 s) is a moment on a loaded
 * 2-core machine, where a queue file, a log line or a counter can trail the request by seconds.
 * A passing run never waits for it.
 */
const SETTLE = { timeout: 60_000, interval: 50 };

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
});

function jsonLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function metricsText(gw: GatewayProcess): Promise<string> {
  const url = /^\s*metrics:\s+(\S+)$/m.exec(gw.stdout())?.[1];
  if (!url) throw new Error(`no metrics line in the banner: ${gw.stdout()}`);
  return (await fetch(url)).text();
}

const metric = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/** On `gw`, as root: the bucket 'events-kept' notifying CONFIG, then a PUT of `Key` in it. */
async function putWithEvents(gw: GatewayProcess, Key: string, Body: string): Promise<void> {
  const s3 = s3Client(gw.url, ROOT_CREDENTIALS);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: 'events-kept' }));
    await s3.send(
      new PutBucketNotificationConfigurationCommand({
        Bucket: 'events-kept',
        NotificationConfiguration: CONFIG,
      }),
    );
    await s3.send(new PutObjectCommand({ Bucket: 'events-kept', Key, Body }));
  } finally {
    s3.destroy();
  }
}

describe('event delivery', () => {
  it('keeps an undelivered event across a restart (webhook down, restart, webhook up: delivered, signed)', async () => {
    const root = await makeTempDir('vgwrdma-events-root-');
    const queueDir = await makeTempDir('vgwrdma-events-queue-');
    cleanup.push(
      () => removeDir(root),
      () => removeDir(queueDir),
    );
    const port = await freePort(); // nothing listens there yet
    const url = `http://127.0.0.1:${port}/events`;
    const args = [
      '--event-webhook-url',
      url,
      '--event-queue-dir',
      queueDir,
      '--event-webhook-secret',
      SECRET,
      '--event-max-attempts',
      '1000',
      '--metrics-port',
      '127.0.0.1:0',
      '--debug',
    ];
    const first = await startGateway({ root, globalArgs: args });
    cleanup.push(() => first.stop());
    await putWithEvents(first, 'kept', 'payload');
    // Settled: the event is on disk, and at least one retry was logged and counted.
    await expect
      .poll(async () => (await readdir(queueDir)).filter((n) => n.endsWith('.json')).length, SETTLE)
      .toBe(1);
    await expect
      .poll(
        () => jsonLines(first.stderr()).find((l) => l.msg === 'event notification not delivered: retrying'),
        SETTLE,
      )
      .toMatchObject({
        url,
        bucket: 'events-kept',
        key: 'kept',
        event: 'ObjectCreated:Put',
        cause: expect.stringMatching(/ECONNREFUSED/),
      });
    const before = await metricsText(first);
    expect(metric(before, 'vgwrdma_event_deliveries_total{outcome="retried"}')).toBeGreaterThan(0);
    expect(metric(before, 'vgwrdma_event_deliveries_total{outcome="delivered"}')).toBe(0);
    expect(metric(before, 'vgwrdma_event_queue_depth')).toBe(1);
    expect((await first.stop()).code).toBe(0);
    expect((await readdir(queueDir)).filter((n) => n.endsWith('.json'))).toHaveLength(1);

    const receiver: EventReceiver = await startEventReceiver(port);
    cleanup.push(() => receiver.close());
    const second = await startGateway({ root, globalArgs: args });
    cleanup.push(() => second.stop());
    const record = await receiver.waitFor(
      (r) => r.s3.object.key === 'kept',
      'kept (from the last run)',
      SETTLE.timeout,
    );
    expect(record.eventName).toBe('ObjectCreated:Put');
    const i = receiver.attempts.findIndex((b) => b.includes('"kept"'));
    const body = receiver.attempts[i] as string;
    expect(receiver.attemptHeaders[i]?.['x-vgwrdma-signature-256']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
    );
    await expect
      .poll(async () => (await readdir(queueDir)).filter((n) => n.endsWith('.json')).length, SETTLE)
      .toBe(0);
    await expect
      .poll(
        async () => metric(await metricsText(second), 'vgwrdma_event_deliveries_total{outcome="delivered"}'),
        SETTLE,
      )
      .toBe(1);
  }, 180_000); // two gateway starts and a retried delivery: past 60 s on a loaded machine

  it('logs a give-up at warn with the URL, bucket, key, event name and cause', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hook`;
    const gw = await startGateway({ globalArgs: ['--event-webhook-url', url, '--event-max-attempts', '2'] });
    cleanup.push(
      () => gw.stop(),
      () => removeDir(gw.root),
    );
    await putWithEvents(gw, 'lost', 'x');
    await expect
      .poll(
        () => jsonLines(gw.stderr()).find((l) => l.msg === 'event notification not delivered: giving up'),
        SETTLE,
      )
      .toMatchObject({
        level: 40,
        url,
        bucket: 'events-kept',
        key: 'lost',
        event: 'ObjectCreated:Put',
        attempts: 2,
        cause: expect.stringMatching(/ECONNREFUSED/),
      });
  }, 180_000); // a gateway start and two failed sends: the poll's bound must fit inside
});
