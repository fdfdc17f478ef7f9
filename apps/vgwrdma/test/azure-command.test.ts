// The `azure` subcommand's command line: versitygw's azure flag names, aliases and AZ_*
// variables, flags winning over the environment, errors that name the flag, and banner rows that
// never show the key or token.

import { describe, expect, it } from 'vitest';
import { backendCommand } from './helpers/backend-command.js';
import { ROOT_ENV } from './helpers/command-line.js';

const KEY = Buffer.from('an account key').toString('base64');

const azure = backendCommand('azure');

describe('vgwrdma azure', () => {
  it('reads the long flags; -a after `azure` is the storage account, not the root access key', () => {
    const { backend } = azure.afterRootFlags([
      '-a',
      'acct1',
      '-k',
      KEY,
      '-u',
      'http://127.0.0.1:10000/acct1',
    ]);
    expect(backend.options).toEqual({ account: 'acct1', key: KEY, url: 'http://127.0.0.1:10000/acct1' });
  });

  it('takes the SAS token by --sas-token or its alias --st', () => {
    for (const flag of ['--sas-token', '--st']) {
      expect(azure.config(['azure', '--account', 'acct1', flag, 'sv=2024&sig=x']).backend.options).toEqual({
        account: 'acct1',
        sasToken: 'sv=2024&sig=x',
      });
    }
  });

  it('reads AZ_ACCOUNT_NAME, AZ_ACCESS_KEY, AZ_SAS_TOKEN and AZ_ENDPOINT; a flag wins', () => {
    const env = {
      ...ROOT_ENV,
      AZ_ACCOUNT_NAME: 'envacct',
      AZ_ACCESS_KEY: KEY,
      AZ_ENDPOINT: 'https://e.example',
    };
    expect(azure.config(['azure'], env).backend.options).toEqual({
      account: 'envacct',
      key: KEY,
      url: 'https://e.example',
    });
    expect(azure.config(['azure', '--account', 'flagacct'], env).backend.options.account).toBe('flagacct');
    const sas = { ...ROOT_ENV, AZ_ACCOUNT_NAME: 'envacct', AZ_SAS_TOKEN: 'sv=1' };
    expect(azure.config(['azure'], sas).backend.options).toEqual({ account: 'envacct', sasToken: 'sv=1' });
  });

  it('names the flag in every refusal', () => {
    expect(azure.refusal(['azure'])).toMatch(/--account \(AZ_ACCOUNT_NAME\) or --url \(AZ_ENDPOINT\)/);
    expect(azure.refusal(['azure', '--account', 'Bad_Name'])).toMatch(/--account/);
    expect(azure.refusal(['azure', '--account', 'acct1', '--access-key', 'not base64!'])).toMatch(
      /--access-key/,
    );
    expect(azure.refusal(['azure', '--url', 'ftp://x'])).toMatch(/--url/);
    expect(azure.refusal(['azure', '--url', 'https://x', '--access-key', KEY])).toMatch(
      /--access-key needs --account/,
    );
    expect(azure.refusal(['azure', '--account', 'acct1', '-k', KEY, '--st', 'sv=1'])).toMatch(/not both/);
    expect(azure.refusal(['azure', '--account', 'acct1', 'extra'])).toMatch(/unexpected argument/);
    expect(azure.refusal(['azure', '--bogus'])).toBe('unknown flag --bogus');
  });

  it('shows the service and the kind of credential in the banner, never the key or token', () => {
    const banner = azure.banner(['azure', '--account', 'acct1', '-k', KEY]);
    expect(banner).toMatch(/backend:\s+azure \(shared key of acct1\)/);
    expect(banner).toMatch(/service:\s+https:\/\/acct1\.blob\.core\.windows\.net/);
    expect(banner).not.toContain(KEY);
    const sas = azure.banner(['azure', '--account', 'acct1', '--st', 'sv=secret-sig']);
    expect(sas).toMatch(/backend:\s+azure \(SAS token\)/);
    expect(sas).not.toContain('secret-sig');
  });
});
