// The listener's resource limits on the BUILT gateway, each attacked with tiny values given by
// flag: requests held open by unfinished bodies fill --max-requests (the next one gets 503
// SlowDown, the health path still answers); idle connections fill --max-connections (the next
// one is closed unanswered); a PUT or UploadPart that stops sending is cut after
// --body-idle-timeout with 400 RequestTimeout, its connection closed and its temp file gone (an
// anonymous POST form that stops among its fields too).
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import {
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import {
  type GatewayProcess,
  killAllChildren,
  ROOT_CREDENTIALS,
  type Scene,
  startScene,
} from '@vgwrdma/test-kit';
import { expectS3Error } from '@vgwrdma/test-kit/scene';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type HeldRequest, openHeldRequest, statusOf } from './helpers/held-request.js';

const bucket = 'limits';
const running: Scene[] = [];
const held: HeldRequest[] = [];

/** A gateway with `globalArgs` and a /health path; `buckets` created first (none: not yet connected to). */
async function scene(globalArgs: readonly string[], buckets: readonly string[] = []): Promise<Scene> {
  const s = await startScene({ globalArgs: [...globalArgs, '--health', '/health'], buckets });
  running.push(s);
  return s;
}
const bareGateway = async (globalArgs: readonly string[]): Promise<GatewayProcess> =>
  (await scene(globalArgs)).gw;

/** A gateway with the test bucket, and an SDK client of it. */
async function gateway(globalArgs: readonly string[]): Promise<{ gw: GatewayProcess; client: S3Client }> {
  const s = await scene(globalArgs, [bucket]);
  return { gw: s.gw, client: s.s3 };
}

afterEach(() => {
  for (const h of held.splice(0)) h.destroy();
});
afterAll(async () => {
  for (const s of running) {
    await s.gw.stop('SIGKILL');
    await s.stop();
  }
  killAllChildren();
});

/** The temp files in `<bucket>/.sgwtmp` (not the multipart directory). */
async function tempFiles(root: string): Promise<string[]> {
  const entries = await readdir(join(root, bucket, '.sgwtmp'), { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A PUT of `size` bytes that has sent its headers and `sent` bytes of body. */
async function heldPut(gw: GatewayProcess, key: string, size: number, sent: number): Promise<HeldRequest> {
  const h = await openHeldRequest(gw.url, {
    method: 'PUT',
    path: `/${bucket}/${key}`,
    contentLength: size,
    credentials: ROOT_CREDENTIALS,
  });
  held.push(h);
  if (sent > 0) h.send(Buffer.alloc(sent, 0x61));
  return h;
}

/** Opens a connection, asks for the health path, and resolves with what came back before close. */
function healthOnNewConnection(port: number): { answered: Promise<string>; close(): void } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => {
    received += chunk;
  });
  socket.on('error', () => {});
  socket.write('GET /health HTTP/1.1\r\nHost: gw\r\n\r\n');
  const answered = new Promise<string>((resolve) => {
    socket.on('data', () => {
      if (received.includes('\r\n\r\n')) resolve(received);
    });
    socket.once('close', () => resolve(received));
  });
  return { answered, close: () => socket.destroy() };
}

describe('--max-requests', () => {
  it('answers the (N+1)th concurrent request 503 SlowDown, exempts the health path, and frees slots', async () => {
    const { gw, client } = await gateway(['--max-requests', '2', '--body-idle-timeout', '60']);
    // Two uploads that send 1 byte of 4 and stop: both inside the gateway, each holding a temp file.
    const first = await heldPut(gw, 'held-1', 4, 1);
    const second = await heldPut(gw, 'held-2', 4, 1);
    await until('both uploads to hold a temp file', async () => (await tempFiles(gw.root)).length === 2);

    await expectS3Error(client.send(new ListObjectsV2Command({ Bucket: bucket })), 'SlowDown', 503);
    expect((await fetch(new URL('/health', gw.url))).status).toBe(200);

    first.send('aaa');
    second.send('aaa');
    expect(statusOf(await first.closed)).toBe(200);
    expect(statusOf(await second.closed)).toBe(200);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(listed.Contents?.map((o) => o.Key).sort()).toEqual(['held-1', 'held-2']);
  });
});

describe('--max-connections', () => {
  it('closes the (N+1)th connection unanswered, and accepts again once one closes', async () => {
    const gw = await bareGateway(['--max-connections', '2']);
    // Two keep-alive connections, each answered once (so the gateway has surely accepted them).
    const kept = [healthOnNewConnection(gw.port), healthOnNewConnection(gw.port)];
    for (const k of kept) expect(statusOf(await k.answered)).toBe(200);

    const third = healthOnNewConnection(gw.port);
    expect(await third.answered).toBe('');

    kept[0]?.close();
    await until('a connection to be served again', async () => {
      const next = healthOnNewConnection(gw.port);
      const status = statusOf(await next.answered);
      next.close();
      return status === 200;
    });
    kept[1]?.close();
  });
});

describe('--body-idle-timeout', () => {
  /** The request was cut: the gateway answered 400 RequestTimeout and closed the connection. */
  async function expectCut(request: HeldRequest): Promise<void> {
    const response = await request.closed;
    expect(statusOf(response)).toBe(400);
    expect(response).toContain('<Code>RequestTimeout</Code>');
  }

  /** The cut upload left nothing: no temp file, no object under `Key`. */
  async function expectNothingStored(gw: GatewayProcess, client: S3Client, Key: string): Promise<void> {
    expect(await tempFiles(gw.root)).toEqual([]);
    await expectS3Error(client.send(new HeadObjectCommand({ Bucket: bucket, Key })), 'NotFound', 404);
  }

  it('cuts a PUT that stops sending with 400 RequestTimeout, closes the connection, leaves no temp file', async () => {
    const { gw, client } = await gateway(['--body-idle-timeout', '1']);
    const put = await heldPut(gw, 'trickled', 10, 1);
    await until('the upload to hold a temp file', async () => (await tempFiles(gw.root)).length === 1);

    // The gateway answers and closes the connection itself (the client never ends its side).
    await expectCut(put);
    await expectNothingStored(gw, client, 'trickled');
  });

  it('cuts an UploadPart that stops sending the same way, and stores no part', async () => {
    const { gw, client } = await gateway(['--body-idle-timeout', '1']);
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'mp' }));
    const part = await openHeldRequest(gw.url, {
      method: 'PUT',
      path: `/${bucket}/mp?partNumber=1&uploadId=${UploadId}`,
      contentLength: 10,
      credentials: ROOT_CREDENTIALS,
    });
    held.push(part);
    part.send('a');
    await until('the part to hold a temp file', async () => (await tempFiles(gw.root)).length === 1);

    await expectCut(part);
    expect(await tempFiles(gw.root)).toEqual([]);
    const parts = await client.send(new ListPartsCommand({ Bucket: bucket, Key: 'mp', UploadId }));
    expect(parts.Parts ?? []).toEqual([]);
  });

  it('cuts an anonymous POST form that stops sending among its fields the same way', async () => {
    const { gw } = await gateway(['--body-idle-timeout', '1']);
    const post = await openHeldRequest(gw.url, {
      method: 'POST',
      path: `/${bucket}`,
      contentLength: 1000,
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
    });
    held.push(post);
    post.send('--XyZ\r\nContent-Disposition: form-data; name="key"\r\n\r\nk');

    await expectCut(post);
  });

  it('cuts a signed POST form that stops sending inside its file the same way, and leaves no temp file', async () => {
    const { gw, client } = await gateway(['--body-idle-timeout', '1']);
    const { fields } = await createPresignedPost(client, { Bucket: bucket, Key: 'posted', Expires: 300 });
    const part = (name: string, value: string) =>
      `--XyZ\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head =
      Object.entries(fields)
        .map(([name, value]) => part(name, value))
        .join('') +
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n' +
      'Content-Type: application/octet-stream\r\n\r\n';
    const post = await openHeldRequest(gw.url, {
      method: 'POST',
      path: `/${bucket}`,
      contentLength: head.length + 1000,
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
    });
    held.push(post);
    post.send(`${head}${'a'.repeat(100)}`);
    await until('the upload to hold a temp file', async () => (await tempFiles(gw.root)).length === 1);

    await expectCut(post);
    await expectNothingStored(gw, client, 'posted');
  });
});
