// The one BlobServiceClient the backend talks through: shared-key credentials when a key is given,
// a SAS token appended to the service URL when one is, anonymous otherwise (public containers).
import { AnonymousCredential, BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { type AzureBackendOptions, serviceUrl } from './options.js';

export function createServiceClient(options: AzureBackendOptions): BlobServiceClient {
  const url = serviceUrl(options);
  // The SDK retries on its own; a gateway answers its client instead of waiting out minutes of
  // backoff, so retries are few and short.
  const pipelineOptions = { retryOptions: { maxTries: 3, retryDelayInMs: 200, maxRetryDelayInMs: 2000 } };
  if (options.sasToken) {
    const sas = options.sasToken.replace(/^\?/, '');
    return new BlobServiceClient(`${url}?${sas}`, new AnonymousCredential(), pipelineOptions);
  }
  if (options.account && options.key) {
    const credential = new StorageSharedKeyCredential(options.account, options.key);
    return new BlobServiceClient(url, credential, pipelineOptions);
  }
  return new BlobServiceClient(url, new AnonymousCredential(), pipelineOptions);
}
