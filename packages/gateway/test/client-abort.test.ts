// Regression: a client that drops a PUT mid-body must never crash the gateway. The decoded body
// stream fails with IncompleteBody when the socket closes early; if the handler had not attached
// a consumer yet (or never will, because it failed first), that error used to go unhandled and
// take the whole process down.

import { Readable } from 'node:stream';
import { HeadBucketCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from './support/harness.js';
import { posixGateway } from './support/posix.js';

describe('client aborts mid-body', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await posixGateway('abort-bkt');
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('survives 30 PUTs cut off at different moments, with and without preconditions', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      for (let i = 0; i < 30; i++) {
        const ac = new AbortController();
        let pushed = 0;
        const delay = i % 3;
        const body = new Readable({
          read() {
            if (pushed++ === 0) this.push(Buffer.alloc(4096, i));
            else if (delay === 0) ac.abort();
            else setTimeout(() => ac.abort(), delay * 5);
          },
        });
        const put = new PutObjectCommand({
          Bucket: i % 5 === 4 ? 'abort-missing-bucket' : 'abort-bkt',
          Key: `k${i}`,
          Body: body,
          ContentLength: 8192,
          ...(i % 2 ? { IfNoneMatch: '*' } : {}),
        });
        await gw.client.send(put, { abortSignal: ac.signal }).catch(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(gw.client.send(new HeadBucketCommand({ Bucket: 'abort-bkt' }))).resolves.toBeDefined();
      // Every upload was cut short: none of them may have left an object behind.
      const listed = await gw.client.send(new ListObjectsV2Command({ Bucket: 'abort-bkt' }));
      expect(listed.KeyCount).toBe(0);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
