// The `azure` subcommand: `vgwrdma [global flags] azure [azure flags]` runs the gateway in front
// of Azure Blob Storage (or Azurite) through @vgwrdma/backend-azure. Its flags come from
// backend-azure's AZURE_BACKEND_OPTIONS (names of versitygw's azure command); parsing into a
// typed config, --help text, banner rows and opening live here.
import {
  AZURE_BACKEND_OPTIONS,
  AzureBackend,
  type AzureBackendOptions,
  AzureUnreachableError,
  serviceUrl,
} from '@vgwrdma/backend-azure';
import type { Backend } from '@vgwrdma/backend-contract';
import { type Env, HELP_OPTION, optionLevel } from '@vgwrdma/cli-options';
import { UsageError } from '@vgwrdma/errors';

/** The azure level: the backend's own options (backend-azure) and -h. */
const AZURE_OPTIONS = { ...AZURE_BACKEND_OPTIONS.shape, ...HELP_OPTION };

const AZURE_LEVEL = optionLevel(AZURE_OPTIONS);
export const AZURE_FLAGS = AZURE_LEVEL.flags;

export interface AzureBackendConfig {
  readonly kind: 'azure';
  readonly options: AzureBackendOptions;
}

/** The azure backend's config from its parsed flags (help already handled by the caller). */
export function azureBackendConfig(
  values: Readonly<Record<string, string | boolean | undefined>>,
  positionals: readonly string[],
  env: Env,
): AzureBackendConfig {
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument(s) for the azure backend: ${positionals.join(' ')}`);
  }
  const f = AZURE_LEVEL.resolve(values, env);
  if (f.url === undefined && f.account === undefined) {
    throw new UsageError('the azure backend needs --account (AZ_ACCOUNT_NAME) or --url (AZ_ENDPOINT)');
  }
  if (f.key !== undefined && f.account === undefined) {
    throw new UsageError('--access-key needs --account: a shared key signs for one storage account');
  }
  if (f.key !== undefined && f.sasToken !== undefined) {
    throw new UsageError('give --access-key or --sas-token, not both');
  }
  // Keys the operator left unset stay absent (zod adds no `undefined`s); -h is not an option.
  const { help: _help, ...options } = f;
  return { kind: 'azure', options: options as AzureBackendOptions };
}

/** Banner rows describing the service (never its key or token). */
export function azureBannerRows(config: AzureBackendConfig): [string, string][] {
  const o = config.options;
  const credentials = o.sasToken ? 'SAS token' : o.key ? `shared key of ${o.account}` : 'anonymous';
  return [
    ['backend', `azure (${credentials})`],
    ['service', serviceUrl(o)],
  ];
}

/** Opens the azure backend; a service that cannot be reached is an operator error, not a crash. */
export async function openAzureBackend(
  config: AzureBackendConfig,
  startupError: (message: string, cause: unknown) => Error,
): Promise<Backend> {
  try {
    return await AzureBackend.open(config.options);
  } catch (error) {
    if (error instanceof AzureUnreachableError) {
      const why = error.cause instanceof Error ? `: ${error.cause.message.split('\n')[0]}` : '';
      throw startupError(
        `cannot reach Azure Blob Storage at ${error.url} with the given credentials${why} ` +
          '(check --url/AZ_ENDPOINT, --account and --access-key or --sas-token)',
        error,
      );
    }
    throw error;
  }
}

export function azureUsage(): string {
  return `vgwrdma azure - Azure Blob Storage backend

Usage:
  vgwrdma [global flags] azure [azure flags]

Buckets are containers of the storage account and objects are block blobs; multipart uploads
are staged blocks committed by CompleteMultipartUpload. User metadata, the S3 ETag and checksums
are kept in blob metadata, object tags as blob index tags, bucket ACLs and policies in container
metadata. Authenticate with the account key (--access-key) or a SAS token (--sas-token); with
neither, requests are anonymous. For Azurite: --url http://127.0.0.1:10000/devstoreaccount1.

Azure flags:
${AZURE_LEVEL.help()}
`;
}
