// RDMA over a TLS control plane: the app with --rdma-ip (softnic) and --cert/--key. cuobjtest's
// cuobjclient sessions sign their requests and send the RDMA token over HTTPS (trusting the test
// CA through NODE_EXTRA_CA_CERTS), and the payload moves by RDMA exactly as over plain HTTP: every
// PUT and GET verified byte for byte, and compared with plain HTTPS bodies. A client that does
// not trust the CA gets no further than the handshake.
import { join } from 'node:path';
import {
  type GatewayProcess,
  killAllChildren,
  makeTempDir,
  makeTestCa,
  ROOT_CREDENTIALS,
  removeDir,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSummary, cuobjtestCompare } from './helpers/cuobjtest.js';

describe('vgwrdma --rdma-ip 127.0.0.1 --cert --key (RDMA, HTTPS control plane)', () => {
  let gw: GatewayProcess;
  let work: string;
  let caFile: string;

  beforeAll(async () => {
    work = await makeTempDir('vgwrdma-rdma-tls-');
    const ca = await makeTestCa(work);
    caFile = ca.caFile;
    const cert = await ca.issue('rdma.vgwrdma.test');
    gw = await startGateway({
      globalArgs: [
        '--rdma-ip',
        '127.0.0.1',
        '--pool-buf-count',
        '2',
        '--cert',
        cert.certFile,
        '--key',
        cert.keyFile,
      ],
    });
  }, 120_000);
  afterAll(async () => {
    await gw?.stop();
    killAllChildren();
    if (gw) await removeDir(gw.root);
    await removeDir(work);
  });

  it('moves verified PUTs and GETs by RDMA with the token sent over HTTPS', async () => {
    expect(gw.url).toMatch(/^https:\/\//);
    const results = await cuobjtestCompare(gw.url, ROOT_CREDENTIALS, '2MiB', 2, {
      NODE_EXTRA_CA_CERTS: caFile,
    });
    expect(compareSummary(results)).toEqual([
      ['rdma', 2 ** 21, true, 2, 2],
      ['std-s3', 2 ** 21, true, 2, 2],
    ]);
  });

  it('fails for a client that does not trust the certificate', async () => {
    await expect(
      cuobjtestCompare(gw.url, ROOT_CREDENTIALS, '1MiB', 1, {
        NODE_EXTRA_CA_CERTS: join(work, 'no-such-ca.pem'),
      }),
    ).rejects.toThrow(/certificate|UNABLE_TO|self.signed/i);
    expect(await gw.stop()).toEqual({ code: 0, signal: null });
  });
});
