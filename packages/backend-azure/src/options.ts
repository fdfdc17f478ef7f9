// What AzureBackend is opened with: versitygw's azure flags (account, key, SAS token, service URL).
import { InvalidArgumentError } from '@vgwrdma/errors';

export interface AzureBackendOptions {
  /** Storage account name (versitygw --account, AZ_ACCOUNT_NAME). */
  account?: string;
  /** Storage account key, base64 (versitygw --access-key, AZ_ACCESS_KEY). */
  key?: string;
  /** A SAS token (versitygw --sas-token, AZ_SAS_TOKEN); used instead of the key when given. */
  sasToken?: string;
  /**
   * The blob service URL (versitygw --url, AZ_ENDPOINT); https://<account>.blob.core.windows.net/
   * when not given. For Azurite: http://127.0.0.1:10000/devstoreaccount1.
   */
  url?: string;
}

/** The service URL the options name, without a trailing slash. */
export function serviceUrl(options: AzureBackendOptions): string {
  const url =
    options.url ?? (options.account ? `https://${options.account}.blob.core.windows.net` : undefined);
  if (url === undefined)
    throw new InvalidArgumentError('azure backend: give a service URL or an account name');
  return url.replace(/\/+$/, '');
}
