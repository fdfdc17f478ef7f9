// `vgwrdma azure`'s command line against the built app: --help lists versitygw's flags and
// environment variables, bad input is a message naming the flag (exit 2), the AZ_* environment
// variables work in place of the flags, an unreachable service or a wrong key is a start-up error
// (exit 1), and the banner never shows the key.
import {
  AZURITE_ACCOUNT,
  azuriteUnavailable,
  killAllChildren,
  loopbackArgs,
  runMain,
  sharedAzurite,
  startApp,
} from '@vgwrdma/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

const unavailable = azuriteUnavailable();

afterAll(() => killAllChildren());

describe('vgwrdma azure: flags', () => {
  it('--help names every flag with its alias and environment variable', async () => {
    const run = await runMain(['azure', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/-a, --account NAME .*env AZ_ACCOUNT_NAME/);
    expect(run.stdout).toMatch(/-k, --access-key KEY .*env AZ_ACCESS_KEY/);
    expect(run.stdout).toMatch(/--sas-token, --st TOKEN .*env AZ_SAS_TOKEN/);
    expect(run.stdout).toMatch(/-u, --url URL .*env AZ_ENDPOINT/);
    const global = await runMain(['--help']);
    expect(global.stdout).toMatch(/^\s+azure\s+Azure Blob Storage/m);
  });

  it('refuses a start without account or URL, naming the flags', async () => {
    const run = await runMain([...loopbackArgs(), 'azure']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--account (AZ_ACCOUNT_NAME) or --url (AZ_ENDPOINT)');
  });

  it('refuses a URL that is not http(s) and a key that is not base64, naming the flag', async () => {
    const url = await runMain([...loopbackArgs(), 'azure', '--url', 'ftp://x', '--account', 'abc']);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--url');
    const key = await runMain([
      ...loopbackArgs(),
      'azure',
      '--account',
      'abc',
      '--access-key',
      'not base64!',
    ]);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('--access-key');
  });

  it('refuses both a key and a SAS token', async () => {
    const run = await runMain([
      ...loopbackArgs(),
      'azure',
      '--account',
      'abc',
      '--access-key',
      'AAAA',
      '--st',
      'sv=x',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--access-key or --sas-token, not both');
  });
});

describe.skipIf(unavailable !== undefined)(
  `vgwrdma azure against Azurite${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    it('starts from the AZ_* environment variables and keeps the key out of the banner', async () => {
      const azurite = await sharedAzurite();
      const gw = await startApp([...loopbackArgs(), 'azure'], {
        AZ_ENDPOINT: azurite.url,
        AZ_ACCOUNT_NAME: AZURITE_ACCOUNT,
        AZ_ACCESS_KEY: azurite.key,
      });
      try {
        expect(gw.stdout()).toMatch(/^\s*backend:\s+azure \(shared key of devstoreaccount1\)$/m);
        expect(gw.stdout()).toContain(azurite.url);
        expect(gw.stdout() + gw.stderr()).not.toContain(azurite.key);
      } finally {
        await gw.stop();
      }
    });

    it('a wrong account key is a start-up error naming the service (exit 1)', async () => {
      const azurite = await sharedAzurite();
      const run = await runMain([
        ...loopbackArgs(),
        'azure',
        '--url',
        azurite.url,
        '--account',
        AZURITE_ACCOUNT,
        '--access-key',
        Buffer.from('wrong key').toString('base64'),
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`cannot reach Azure Blob Storage at ${azurite.url}`);
    });
  },
);
