// listen() with `tls`: an HTTPS listener (TLS 1.2+) for the SDK, setTlsCredentials() swapping the
// certificate for new connections, refusing a broken pair without losing the current one, and
// refusing to run on a plain-HTTP listener.
import { readFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import { connect } from 'node:tls';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { makeTempDir, makeTestCa, removeDir, type TestCa } from '@vgwrdma/test-kit';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { staticCredentials } from '../src/auth/index.js';
import { createGateway } from '../src/create-gateway.js';
import type { RunningGateway, TlsCredentials } from '../src/server/listen.js';

let dir: string;
let ca: TestCa;
let caPem: Buffer;
const pairs: TlsCredentials[] = [];
const gateway = createGateway({
  backend: new MemoryBackend(),
  credentials: staticCredentials([{ access: 'AKIDTLS', secret: 'tls-secret', account: { role: 'admin' } }]),
});

beforeAll(async () => {
  dir = await makeTempDir('gateway-tls-');
  ca = await makeTestCa(dir);
  caPem = await readFile(ca.caFile);
  for (const name of ['one.test', 'two.test']) {
    const issued = await ca.issue(name);
    pairs.push({ cert: await readFile(issued.certFile), key: await readFile(issued.keyFile) });
  }
}, 60_000);
afterAll(async () => {
  await gateway.shutdown();
  await removeDir(dir);
});

function peerCN(running: RunningGateway): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: running.port, ca: [caPem] }, () => {
      resolve(String(socket.getPeerCertificate().subject.CN));
      socket.end();
    });
    socket.once('error', reject);
  });
}

it('serves HTTPS to the SDK and swaps the certificate for new connections', async () => {
  const running = await gateway.listen({ port: 0, host: '127.0.0.1', tls: pairs[0] as TlsCredentials });
  expect(running.url).toBe(`https://127.0.0.1:${running.port}`);
  const client = new S3Client({
    endpoint: running.url,
    region: 'us-east-1',
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: 'AKIDTLS', secretAccessKey: 'tls-secret' },
    requestHandler: { httpsAgent: new Agent({ ca: caPem }) },
  });
  try {
    expect((await client.send(new ListBucketsCommand({}))).Buckets ?? []).toEqual([]);
  } finally {
    client.destroy();
  }
  expect(await peerCN(running)).toBe('one.test');
  running.setTlsCredentials(pairs[1] as TlsCredentials);
  expect(await peerCN(running)).toBe('two.test');
  // A key that is not the certificate's: refused, and the current pair stays.
  expect(() =>
    running.setTlsCredentials({
      cert: (pairs[0] as TlsCredentials).cert,
      key: (pairs[1] as TlsCredentials).key,
    }),
  ).toThrow(/key values mismatch/);
  expect(await peerCN(running)).toBe('two.test');
});

it('has no certificate to swap on a plain-HTTP listener', async () => {
  const running = await gateway.listen({ port: 0, host: '127.0.0.1' });
  expect(running.url).toMatch(/^http:\/\//);
  expect(() => running.setTlsCredentials(pairs[0] as TlsCredentials)).toThrow(/plain HTTP/);
});
