// The azure backend's operator settings, declared once: each AzureBackendOptions field with its
// command-line flag, environment variables and help text (metadata of @vgwrdma/cli-options).
// Names, aliases and variables follow versitygw's azure command. vgwrdma derives its `azure`
// level's flags, environment fallback and --help from this schema; the validated object is an
// AzureBackendOptions.
import { nonEmpty, option } from '@vgwrdma/cli-options';
import { z } from 'zod';

export const AZURE_BACKEND_OPTIONS = z.object({
  account: option(
    z
      .string()
      .regex(/^[a-z0-9]{3,24}$/, 'must be a storage account name (3-24 lower-case letters and digits)'),
    { short: 'a', env: ['AZ_ACCOUNT_NAME'], arg: 'NAME', help: 'azure storage account name' },
  ).optional(),
  key: option(z.base64('must be the base64 account key'), {
    flag: 'access-key',
    short: 'k',
    env: ['AZ_ACCESS_KEY'],
    arg: 'KEY',
    help: 'azure storage account key',
  }).optional(),
  sasToken: option(nonEmpty, {
    flag: 'sas-token',
    aliases: ['st'],
    env: ['AZ_SAS_TOKEN'],
    arg: 'TOKEN',
    help: 'azure blob storage SAS token (instead of the account key)',
  }).optional(),
  url: option(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }), {
    short: 'u',
    env: ['AZ_ENDPOINT'],
    arg: 'URL',
    help: 'azure blob service URL (default https://<account>.blob.core.windows.net/)',
  }).optional(),
});
