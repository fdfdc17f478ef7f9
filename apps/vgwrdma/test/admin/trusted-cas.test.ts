// --ca-bundle's CA list: a request's `ca` replaces Node's default store, so the list must carry
// Node's roots and NODE_EXTRA_CA_CERTS as well as the bundle (an AWS_CA_BUNDLE in the environment
// once made the admin CLI and cuobjtest distrust a CA that NODE_EXTRA_CA_CERTS named).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { trustedCas } from '../../src/admin/trusted-cas.js';

const dir = mkdtempSync(join(tmpdir(), 'vgwrdma-trusted-cas-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('trustedCas', () => {
  const bundle = Buffer.from('-----BEGIN CERTIFICATE-----\nbundle\n-----END CERTIFICATE-----\n');

  it("keeps Node's roots and NODE_EXTRA_CA_CERTS beside the bundle", () => {
    const extraFile = join(dir, 'extra.pem');
    writeFileSync(extraFile, '-----BEGIN CERTIFICATE-----\nextra\n-----END CERTIFICATE-----\n');
    const cas = trustedCas(bundle, { NODE_EXTRA_CA_CERTS: extraFile });
    expect(cas.slice(0, rootCertificates.length)).toEqual([...rootCertificates]);
    expect(cas.slice(rootCertificates.length)).toEqual([
      '-----BEGIN CERTIFICATE-----\nextra\n-----END CERTIFICATE-----\n',
      bundle.toString('utf8'),
    ]);
  });

  it('skips an unreadable NODE_EXTRA_CA_CERTS, as Node does, and works without one', () => {
    expect(trustedCas(bundle, { NODE_EXTRA_CA_CERTS: join(dir, 'missing.pem') })).toHaveLength(
      rootCertificates.length + 1,
    );
    expect(trustedCas(bundle, {})).toHaveLength(rootCertificates.length + 1);
  });
});
