// Handlers for combinations S3 names a specific error for, rather than NotImplemented.
import { S3Error } from '@vgwrdma/s3-backend';
import type { Handler } from '../routes/types.js';

export const versionsOnKey: Handler = async () => {
  throw new S3Error('InvalidRequest', 'There is no such thing as the ?versions sub-resource for a key');
};

export const uploadsOnKey: Handler = async () => {
  throw new S3Error('InvalidRequest', 'Key is not expected for the GET method ?uploads subresource');
};
