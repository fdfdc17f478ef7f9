// Starts the BUILT gateway on the azure backend (`vgwrdma ... azure --url <Azurite> ...`) against
// the run's Azurite, on a free loopback port. azureArgs is that backend command alone, for the
// tests that run the bin themselves (a wrong key, say).
import {
  type AppProcess,
  AZURITE_ACCOUNT,
  type Azurite,
  type Credentials,
  loopbackArgs,
  sharedAzurite,
  startApp,
} from '@vgwrdma/test-kit';

/** `azure --url <Azurite> --account <its account> --access-key <key>` (Azurite's own key by default). */
export function azureArgs(azurite: Azurite, key: string = azurite.key): string[] {
  return ['azure', '--url', azurite.url, '--account', AZURITE_ACCOUNT, '--access-key', key];
}

export async function startAzureGateway(
  root: Credentials,
  globalArgs: readonly string[] = [],
): Promise<{ gw: AppProcess; azurite: Azurite }> {
  const azurite = await sharedAzurite();
  const gw = await startApp([...loopbackArgs(root), ...globalArgs, ...azureArgs(azurite)]);
  return { gw, azurite };
}
