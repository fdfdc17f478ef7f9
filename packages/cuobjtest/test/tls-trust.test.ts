// -ca-bundle's agent: its `ca` replaces Node's default store, so it carries Node's roots and
// NODE_EXTRA_CA_CERTS as well as the bundle; no bundle, no agent of its own; an unreadable bundle
// is a usage error naming the flag.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../src/flags.js';
import { trustOptions } from '../src/tls-trust.js';

const dir = mkdtempSync(join(tmpdir(), 'cuobjtest-tls-trust-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('trustOptions', () => {
  it('is empty without a bundle', () => {
    expect(trustOptions(undefined, {})).toEqual({});
    expect(trustOptions('', {})).toEqual({});
  });

  it("trusts Node's roots, NODE_EXTRA_CA_CERTS and the bundle", () => {
    const bundle = join(dir, 'bundle.pem');
    const extra = join(dir, 'extra.pem');
    writeFileSync(bundle, 'BUNDLE-PEM');
    writeFileSync(extra, 'EXTRA-PEM');
    const agent = trustOptions(bundle, { NODE_EXTRA_CA_CERTS: extra }).requestHandler?.httpsAgent;
    const ca = (agent?.options as { ca?: string[] } | undefined)?.ca ?? [];
    expect(ca).toEqual([...rootCertificates, 'EXTRA-PEM', 'BUNDLE-PEM']);
    agent?.destroy();
  });

  it('refuses an unreadable bundle naming the flag', () => {
    expect(() => trustOptions(join(dir, 'none.pem'), {})).toThrow(UsageError);
    expect(() => trustOptions(join(dir, 'none.pem'), {})).toThrow(/-ca-bundle .*none\.pem: ENOENT/);
  });
});
