// @vgwrdma/backend-azure: the Backend contract on Azure Blob Storage (or Azurite).
export { AzureBackend, AzureUnreachableError } from './azure-backend.js';
export { toS3Error } from './azure-error.js';
export type { AzureBackendOptions } from './options.js';
export { serviceUrl } from './options.js';
export { AZURE_BACKEND_OPTIONS } from './options-schema.js';
