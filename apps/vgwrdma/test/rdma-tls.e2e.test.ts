// RDMA over a TLS control plane: the app with --rdma-ip (softnic) and --cert/--key. cuobjtest's
// cuobjclient sessions sign their requests and send the RDMA token over HTTPS (trusting the test
// CA through NODE_EXTRA_CA_CERTS), and the payload moves by RDMA exactly as over plain HTTP: every
// PUT and GET verified byte for byte, and compared with plain HTTPS bodies. A client that does
// not trust the CA gets no further than the handshake.
import { join } from 'node:path';
import { ROOT_CREDENTIALS, sceneTls } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect } from 'vitest';
import { compareSummary, cuobjtestCompare } from './helpers/cuobjtest.js';

let caFile: string;
const test = sceneTest(async (dir) => {
  const tls = await sceneTls(dir, 'rdma.vgwrdma.test');
  caFile = tls.ca.caFile;
  return { rdma: true, globalArgs: ['--pool-buf-count', '2', ...tls.args] };
});

describe('vgwrdma --rdma-ip 127.0.0.1 --cert --key (RDMA, HTTPS control plane)', () => {
  test('moves verified PUTs and GETs by RDMA with the token sent over HTTPS', async ({ scene: { gw } }) => {
    expect(gw.url).toMatch(/^https:\/\//);
    const results = await cuobjtestCompare(gw.url, ROOT_CREDENTIALS, '2MiB', 2, {
      NODE_EXTRA_CA_CERTS: caFile,
    });
    expect(compareSummary(results)).toEqual([
      ['rdma', 2 ** 21, true, 2, 2],
      ['std-s3', 2 ** 21, true, 2, 2],
    ]);
  });

  test('fails for a client that does not trust the certificate', async ({ scene: { gw, dir } }) => {
    await expect(
      cuobjtestCompare(gw.url, ROOT_CREDENTIALS, '1MiB', 1, {
        NODE_EXTRA_CA_CERTS: join(dir, 'no-such-ca.pem'),
      }),
    ).rejects.toThrow(/certificate|UNABLE_TO|self.signed/i);
    expect(await gw.stop()).toEqual({ code: 0, signal: null });
  });
});
