// `vgwrdma admin` against an HTTPS gateway whose certificate a private CA signed: without the CA
// the error says "certificate not trusted" and what to pass (not "is the gateway running");
// with --ca-bundle FILE, or AWS_CA_BUNDLE as the AWS CLI reads it, the call succeeds.
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type GatewayProcess,
  makeTempDir,
  makeTestCa,
  ROOT_CREDENTIALS,
  removeDir,
  runMain,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let work: string;
let gw: GatewayProcess;
let caFile: string;

beforeAll(async () => {
  work = await makeTempDir('vgwrdma-admin-ca-');
  const ca = await makeTestCa(work);
  const cert = await ca.issue('admin-ca.vgwrdma.test');
  caFile = join(work, 'private-ca.pem');
  await copyFile(ca.caFile, caFile);
  gw = await startGateway({ globalArgs: ['--cert', cert.certFile, '--key', cert.keyFile] });
});
afterAll(async () => {
  await gw?.stop();
  if (gw) await removeDir(gw.root);
  if (work) await removeDir(work);
});

const admin = (args: readonly string[], env: Record<string, string> = {}) =>
  runMain(
    ['admin', '-a', ROOT_CREDENTIALS.access, '-s', ROOT_CREDENTIALS.secret, '-er', gw.url, ...args],
    env,
  );

describe('vgwrdma admin and a private CA', () => {
  it('says "certificate not trusted" and what to pass when the CA is unknown', async () => {
    expect(gw.url).toMatch(/^https:/);
    const r = await admin(['list-users']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /certificate not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): pass --ca-bundle FILE/,
    );
    expect(r.stderr).not.toMatch(/is the gateway running/);
  });

  it('trusts the CA given with --ca-bundle or AWS_CA_BUNDLE', async () => {
    const flag = await admin(['--ca-bundle', caFile, 'list-users', '--json']);
    expect(flag.stderr).toBe('');
    expect(flag.code).toBe(0);
    const env = await admin(['list-users', '--json'], { AWS_CA_BUNDLE: caFile });
    expect(env.code, env.stderr).toBe(0);
  });

  it('names an unreadable bundle as a usage error', async () => {
    const r = await admin(['--ca-bundle', join(work, 'missing.pem'), 'list-users']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--ca-bundle .*missing\.pem: ENOENT/);
  });
});
