// Starts the BUILT gateway on the azure backend (`vgwrdma ... azure --url <Azurite> ...`) against
// the run's Azurite, on a free loopback port.
import {
  type AppProcess,
  AZURITE_ACCOUNT,
  type Azurite,
  type Credentials,
  loopbackArgs,
  sharedAzurite,
  startApp,
} from '@vgwrdma/test-kit';

export async function startAzureGateway(
  root: Credentials,
  globalArgs: readonly string[] = [],
): Promise<{ gw: AppProcess; azurite: Azurite }> {
  const azurite = await sharedAzurite();
  const gw = await startApp([
    ...loopbackArgs(root),
    ...globalArgs,
    'azure',
    '--url',
    azurite.url,
    '--account',
    AZURITE_ACCOUNT,
    '--access-key',
    azurite.key,
  ]);
  return { gw, azurite };
}
