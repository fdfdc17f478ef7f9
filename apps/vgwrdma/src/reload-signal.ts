// SIGHUP means "re-read your files" (systemd's ExecReload, `kill -HUP`, logrotate's postrotate):
// the gateway re-reads its TLS certificate and key and reopens --access-log FILE. Without either
// there is nothing to do, and the signal is still caught, so a reload never kills the gateway
// (Node's default for SIGHUP is to exit).

export interface ReloadSignal {
  /** Removes the handler. */
  dispose(): void;
}

export function watchReloadSignal(onReload: () => void): ReloadSignal {
  const handler = (): void => onReload();
  process.on('SIGHUP', handler);
  return { dispose: () => process.off('SIGHUP', handler) };
}
