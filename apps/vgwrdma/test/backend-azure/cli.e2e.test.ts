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
import { azureArgs } from './azure-gateway.js';

const unavailable = azuriteUnavailable();

/** Command lines `vgwrdma azure` refuses before it starts, and what the message must say. */
const REFUSED = [
  {
    what: 'refuses a start without account or URL',
    argv: [],
    message: '--account (AZ_ACCOUNT_NAME) or --url (AZ_ENDPOINT)',
  },
  {
    what: 'refuses a URL that is not http(s)',
    argv: ['--url', 'ftp://x', '--account', 'abc'],
    message: '--url',
  },
  {
    what: 'refuses a key that is not base64',
    argv: ['--account', 'abc', '--access-key', 'not base64!'],
    message: '--access-key',
  },
  {
    what: 'refuses both a key and a SAS token',
    argv: ['--account', 'abc', '--access-key', 'AAAA', '--st', 'sv=x'],
    message: '--access-key or --sas-token, not both',
  },
];

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

  it.each(REFUSED)('$what, naming the flag (exit 2)', async ({ argv, message }) => {
    const run = await runMain([...loopbackArgs(), 'azure', ...argv]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
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
        ...azureArgs(azurite, Buffer.from('wrong key').toString('base64')),
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`cannot reach Azure Blob Storage at ${azurite.url}`);
    });
  },
);
