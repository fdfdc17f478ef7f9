// What SIGHUP does: re-read --cert / --key and hand the new pair to the listener. Connections
// already open keep their session and are never dropped; new ones get the new certificate. A pair
// that fails to load (half-written file, wrong key) is logged and the running one stays.
import type { RunningGateway } from '@vgwrdma/gateway';
import type { Logger } from 'pino';
import { loadTlsFiles, type TlsFiles } from './tls-files.js';

export async function reloadTls(
  files: TlsFiles | undefined,
  running: RunningGateway,
  logger: Pick<Logger, 'info' | 'error'>,
): Promise<boolean> {
  if (files === undefined) {
    logger.info({}, 'SIGHUP: no --cert/--key to reload');
    return false;
  }
  try {
    const loaded = await loadTlsFiles(files);
    running.setTlsCredentials(loaded);
    logger.info(
      { cert: files.certFile, subject: loaded.subject, validTo: loaded.validTo },
      'TLS certificate reloaded',
    );
    return true;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    logger.error(
      { cert: files.certFile, key: files.keyFile },
      `TLS reload failed, keeping the current certificate: ${why}`,
    );
    return false;
  }
}
