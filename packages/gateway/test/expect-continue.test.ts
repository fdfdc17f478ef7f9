// `Expect: 100-continue`: the gateway answers a refused upload with its final status before the
// client sends the body, and sends `100 Continue` only to a request it will take (s3-tests'
// test_100_continue; botocore and curl send the header on larger PUTs).
import { connect } from 'node:net';
import { GetObjectCommand, PutBucketAclCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from './support/harness.js';
import { posixGateway } from './support/posix.js';

/** Sends the head of an anonymous PUT; resolves the socket and the first status line it gets. */
function putHead(
  url: string,
  path: string,
): Promise<{ line: string; send: (body: string) => Promise<string> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let first = true;
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (first && received.includes('\r\n\r\n')) {
        first = false;
        const line = received.slice(0, received.indexOf('\r\n'));
        received = received.slice(received.indexOf('\r\n\r\n') + 4);
        resolve({
          line,
          // No half-close: Node drops a request whose client ends its side before the answer.
          send: (body) =>
            new Promise((done) => {
              socket.on('data', () => {
                if (received.includes('\r\n')) {
                  done(received.slice(0, received.indexOf('\r\n')));
                  socket.destroy();
                }
              });
              socket.write(body);
            }),
        });
      }
    });
    socket.write(
      `PUT ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Length: 3\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
  });
}

describe('Expect: 100-continue', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await posixGateway('continue-bkt');
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('refuses before the body, and invites the body only when the request is allowed', async () => {
    const refused = await putHead(gw.url, '/continue-bkt/obj');
    expect(refused.line).toBe('HTTP/1.1 403 Forbidden');

    await gw.client.send(new PutBucketAclCommand({ Bucket: 'continue-bkt', ACL: 'public-read-write' }));
    const invited = await putHead(gw.url, '/continue-bkt/obj');
    expect(invited.line).toBe('HTTP/1.1 100 Continue');
    expect(await invited.send('abc')).toBe('HTTP/1.1 200 OK');
    const got = await gw.client.send(new GetObjectCommand({ Bucket: 'continue-bkt', Key: 'obj' }));
    expect(await got.Body?.transformToString()).toBe('abc');
  });
});
