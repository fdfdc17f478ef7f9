// CompleteMultipartUpload that outlasts the keep-alive threshold: a 200 with whitespace first,
// then the result — or an <Error> document the SDK turns back into an exception.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  type S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { CompleteMultipartUploadInput, RequestContext } from '@vgwrdma/backend-contract';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMPLETE_KEEPALIVE } from '../src/handlers/keep-alive.js';
import { ACCESS, SECRET, startGateway, type TestGateway } from './support/harness.js';
import { signedRaw } from './support/signed-raw.js';

/** Completion waits on a gate the test opens. */
class SlowComplete extends MemoryBackend {
  gate: Promise<void> = Promise.resolve();
  override async completeMultipartUpload(ctx: RequestContext, input: CompleteMultipartUploadInput) {
    await this.gate;
    return super.completeMultipartUpload(ctx, input);
  }
}

let gw: TestGateway;
let backend: SlowComplete;
const saved = { ...COMPLETE_KEEPALIVE };

beforeAll(async () => {
  Object.assign(COMPLETE_KEEPALIVE, { afterMs: 20, everyMs: 5 });
  backend = new SlowComplete();
  gw = await startGateway(backend);
  await gw.client.send(new CreateBucketCommand({ Bucket: 'slow' }));
});
afterAll(async () => {
  Object.assign(COMPLETE_KEEPALIVE, saved);
  await gw.close();
});

async function uploadOnePart(Key: string) {
  const { UploadId } = await gw.client.send(new CreateMultipartUploadCommand({ Bucket: 'slow', Key }));
  const part = await gw.client.send(
    new UploadPartCommand({ Bucket: 'slow', Key, UploadId, PartNumber: 1, Body: 'slow part' }),
  );
  return { UploadId, ETag: part.ETag };
}

/**
 * Holds the next completion until the gateway has written `spaces` keep-alive spaces on the
 * wire: the completion then finishes in the streamed answer, whatever the machine's speed.
 */
function holdCompletionUntilWhitespace(spaces: number): void {
  let open!: () => void;
  backend.gate = new Promise((r) => {
    open = r;
  });
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || !req.url?.includes('uploadId=')) return;
    gw.running.server.off('request', onRequest);
    let seen = 0;
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (chunk === ' ' && ++seen === spaces) open();
      return write(chunk, ...rest);
    }) as typeof res.write;
  };
  gw.running.server.on('request', onRequest);
}

it('streams whitespace while the backend completes, then the result the SDK reads', async () => {
  const { UploadId, ETag } = await uploadOnePart('done');
  holdCompletionUntilWhitespace(2);
  const out = await gw.client.send(
    new CompleteMultipartUploadCommand({
      Bucket: 'slow',
      Key: 'done',
      UploadId,
      MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] },
    }),
  );
  expect(out.ETag).toMatch(/-1"$/);
  const got = await gw.client.send(new GetObjectCommand({ Bucket: 'slow', Key: 'done' }));
  expect(await got.Body?.transformToString()).toBe('slow part');
});

it('puts the whitespace between the XML declaration and the result on the wire', async () => {
  const { UploadId, ETag } = await uploadOnePart('wire');
  holdCompletionUntilWhitespace(3);
  const body = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${ETag}</ETag></Part></CompleteMultipartUpload>`;
  const res = await signedRaw(gw.url, ACCESS, SECRET, {
    method: 'POST',
    path: `/slow/wire?uploadId=${UploadId}`,
    body,
    headers: { 'content-md5': createHash('md5').update(body).digest('base64') },
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatch(
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n {3,}<CompleteMultipartUploadResult xmlns=/,
  );
});

it('reports a failure that comes after the 200 as an Error document the SDK throws', async () => {
  const { UploadId } = await uploadOnePart('fails');
  holdCompletionUntilWhitespace(2);
  const err = await gw.client
    .send(
      new CompleteMultipartUploadCommand({
        Bucket: 'slow',
        Key: 'fails',
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"00000000000000000000000000000000"' }] },
      }),
    )
    .catch((e) => e);
  expect((err as S3ServiceException).name).toBe('InvalidPart');
});

it('answers a fast completion without keep-alive', async () => {
  const { UploadId, ETag } = await uploadOnePart('fast');
  backend.gate = Promise.resolve();
  Object.assign(COMPLETE_KEEPALIVE, { afterMs: 60_000 });
  try {
    const body = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${ETag}</ETag></Part></CompleteMultipartUpload>`;
    const res = await signedRaw(gw.url, ACCESS, SECRET, {
      method: 'POST',
      path: `/slow/fast?uploadId=${UploadId}`,
      body,
      headers: { 'content-md5': createHash('md5').update(body).digest('base64') },
    });
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<CompleteMultipartUploadResult /);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
  } finally {
    Object.assign(COMPLETE_KEEPALIVE, { afterMs: 20 });
  }
});
