// RDMA through the s3 proxy, end to end with the real binaries: `vgwrdma --rdma-ip 127.0.0.1 s3`
// (CuServer over the s3 backend, softnic) in front of `vgwrdma posix`, and the built cuobjtest CLI
// doing a verified RDMA PUT+GET round trip against the proxy. RDMA to the proxy, HTTP upstream:
// the object must land in the posix gateway's tree.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import {
  distFile,
  type GatewayProcess,
  killAllChildren,
  ROOT_CREDENTIALS,
  removeDir,
  s3Client,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyProcess, startProxyGateway } from './helpers/proxy-process.js';

const CUOBJTEST = distFile('cuobjtest', 'main.js');
const PROXY_KEYS = { access: 'rdma-proxy-access', secret: 'rdma-proxy-secret' } as const;
const META = 'vgw-meta';
const MiB = 1024 * 1024;

let upstream: GatewayProcess;
let proxy: ProxyProcess;

function cuobjtest(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CUOBJTEST, ...args],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, maxBuffer: 16 * MiB, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        done({ code, stdout, stderr });
      },
    );
  });
}

describe('RDMA through `vgwrdma --rdma-ip ... s3` (cuobjtest round trip)', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    upstream = await startGateway();
    const admin = s3Client(upstream.url, ROOT_CREDENTIALS);
    await admin.send(new CreateBucketCommand({ Bucket: META }));
    admin.destroy();
    proxy = await startProxyGateway(
      PROXY_KEYS,
      [
        '--endpoint',
        upstream.url,
        '--access',
        ROOT_CREDENTIALS.access,
        '--secret',
        ROOT_CREDENTIALS.secret,
        '--use-path-style',
        '--meta-bucket',
        META,
      ],
      ['--rdma-ip', '127.0.0.1'],
    );
  });

  afterAll(async () => {
    await proxy?.stop();
    await upstream?.stop();
    killAllChildren();
    if (upstream) await removeDir(upstream.root);
  });

  it('announces RDMA and the s3 backend in the banner', () => {
    expect(proxy.stdout()).toMatch(/^\s*rdma:\s+softnic on 127\.0\.0\.1/m);
    expect(proxy.stdout()).toMatch(/^\s*backend:\s+s3 \(/m);
  });

  it('passes a verified cuobjtest RDMA PUT+GET round trip; the bytes land upstream', async () => {
    const run = await cuobjtest([
      '-endpoint',
      proxy.url,
      '-access',
      PROXY_KEYS.access,
      '-secret',
      PROXY_KEYS.secret,
      '-bucket',
      'rdma-through-proxy',
      '-key',
      'roundtrip',
      '-size',
      '4MiB',
      '-n',
      '2',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      mode: 'rdma',
      sizeBytes: 4 * MiB,
      iterations: 2,
      verified: true,
    });
    const stored = await readFile(join(upstream.root, 'rdma-through-proxy', 'roundtrip'));
    expect(stored.length).toBe(4 * MiB);
  });
});
