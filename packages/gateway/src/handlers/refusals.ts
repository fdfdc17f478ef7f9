// Handlers for combinations S3 names a specific error for, rather than NotImplemented.
import { S3Error } from '@vgwrdma/backend-contract';
import type { Handler } from '../routes/types.js';

export const versionsOnKey: Handler = async () => {
  throw new S3Error('InvalidRequest', 'There is no such thing as the ?versions sub-resource for a key');
};

export const uploadsOnKey: Handler = async () => {
  throw new S3Error('InvalidRequest', 'Key is not expected for the GET method ?uploads subresource');
};

/**
 * GetObjectTorrent: no torrents are served, but the key is looked up first, so a missing key
 * is NoSuchKey (404) as on S3 and Ceph RGW, and only an existing one NotImplemented.
 */
export const torrent: Handler = async (_c, req) => {
  const versionId = req.query.get('versionId');
  await req.backend.headObject(req.ctx, {
    bucket: req.bucket,
    key: req.key,
    ...(versionId ? { versionId } : {}),
  });
  throw new S3Error('NotImplemented');
};
