// Opens the storage backend named on the command line, turning its start-up failures into
// messages an operator can act on (missing root, no xattr support).

import { stat } from 'node:fs/promises';
import type { Backend } from '@vgwrdma/backend-contract';
import { limitConcurrency, PosixBackend, XattrUnsupportedError } from '@vgwrdma/backend-posix';
import { StartupError } from '@vgwrdma/errors';
import { openAzureBackend } from './azure-command.js';
import type { GatewayConfig } from './config.js';
import { openS3Backend } from './s3-command.js';

async function checkDirectory(path: string, what: string): Promise<void> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new StartupError(`${what} ${path} does not exist; create it first`);
    throw new StartupError(`cannot access ${what} ${path}: ${error.message}`, { cause: error });
  });
  if (!info.isDirectory()) throw new StartupError(`${what} ${path} is not a directory`);
}

export async function openBackend(config: GatewayConfig): Promise<Backend> {
  if (config.backend.kind === 's3') {
    return openS3Backend(config.backend, (message, cause) => new StartupError(message, { cause }));
  }
  if (config.backend.kind === 'azure') {
    return openAzureBackend(config.backend, (message, cause) => new StartupError(message, { cause }));
  }
  const {
    root,
    sidecar,
    nometa,
    dirPerms,
    filePerms,
    concurrency,
    chownUid,
    chownGid,
    bucketLinks,
    versioningDir,
    etagMode,
  } = config.backend;
  await checkDirectory(root, 'root directory');
  // versitygw requires the versioning directory to exist, outside the root.
  if (versioningDir !== undefined) await checkDirectory(versioningDir, 'versioning directory');
  try {
    const posix = await PosixBackend.open({
      root,
      nometa,
      dirPerms,
      etagMode,
      filePerms,
      chownUid,
      chownGid,
      bucketLinks,
      region: config.region,
      ...(sidecar === undefined ? {} : { sidecar }),
      ...(versioningDir === undefined ? {} : { versioningDir }),
    });
    // --concurrency: at most this many backend operations at once (versitygw's posix option).
    return limitConcurrency(posix, concurrency);
  } catch (error) {
    if (error instanceof XattrUnsupportedError) {
      throw new StartupError(
        `${root} does not support user extended attributes (xattrs), where the posix backend keeps ` +
          'object metadata. Use a filesystem with user xattrs, or start with `posix --sidecar DIR` ' +
          'to keep metadata in files under DIR (or `posix --nometa` to drop it).',
        { cause: error },
      );
    }
    if (versioningDir !== undefined && error instanceof Error && error.message.includes(versioningDir)) {
      throw new StartupError(error.message, { cause: error });
    }
    throw error;
  }
}
