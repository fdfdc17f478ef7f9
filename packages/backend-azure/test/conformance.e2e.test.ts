// The shared backend conformance kit, run against AzureBackend over the run's Azurite (started on
// loopback by the test-kit). Skipped, with the reason, when Azurite cannot run here.

import { runBackendConformance } from '@vgwrdma/backend-contract/conformance';
import { AZURITE_ACCOUNT, azuriteUnavailable, sharedAzurite } from '@vgwrdma/test-kit';
import { describe, it } from 'vitest';
import { AzureBackend } from '../src/index.js';

const unavailable = azuriteUnavailable();

if (unavailable) {
  describe('backend conformance: azure', () => {
    it.skip(`Azurite cannot run here: ${unavailable}`, () => {});
  });
} else {
  runBackendConformance('azure (Azurite)', async () => {
    const azurite = await sharedAzurite();
    const backend = await AzureBackend.open({ account: AZURITE_ACCOUNT, key: azurite.key, url: azurite.url });
    return { backend, cleanup: () => backend.shutdown() };
  });
}
