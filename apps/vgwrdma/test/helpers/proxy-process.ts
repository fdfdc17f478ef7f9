// Starts the BUILT gateway as an s3 proxy (`vgwrdma ... s3 --endpoint <upstream> ...`) on a free
// loopback port (test-kit's startApp, which learns the port from the banner).
import { type AppProcess, type Credentials, loopbackArgs, startApp } from '@vgwrdma/test-kit';

export type ProxyProcess = AppProcess;

export async function startProxyGateway(
  root: Credentials,
  s3Args: readonly string[],
  globalArgs: readonly string[] = [],
): Promise<ProxyProcess> {
  return startApp([...loopbackArgs(root), ...globalArgs, 's3', ...s3Args]);
}
