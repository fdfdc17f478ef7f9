// RDMA through CuServer over the azure backend, end to end with the real binaries:
// `vgwrdma --rdma-ip 127.0.0.1 azure ...` (softnic) over Azurite, and the built cuobjtest CLI
// (the cuobjclient SDK) doing verified RDMA PUT+GET round trips — one object under a block, one
// spanning several staged blocks. The objects are then read straight from Blob Storage.
import { AzureBackend } from '@vgwrdma/backend-azure';
import {
  type AppProcess,
  AZURITE_ACCOUNT,
  type Azurite,
  azuriteUnavailable,
  killAllChildren,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRdmaRoundTrip } from '../helpers/cuobjtest-run.js';
import { startAzureGateway } from './azure-gateway.js';

const KEYS = { access: 'rdma-azure-access', secret: 'rdma-azure-secret' } as const;
const MiB = 1024 * 1024;
const unavailable = azuriteUnavailable();

let gw: AppProcess;
let azurite: Azurite;

describe.skipIf(unavailable !== undefined)(
  `RDMA through vgwrdma --rdma-ip ... azure${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  { timeout: 180_000 },
  () => {
    beforeAll(async () => {
      ({ gw, azurite } = await startAzureGateway(KEYS, [
        '--rdma-ip',
        '127.0.0.1',
        '--pool-buf-size',
        '32MiB',
        '--pool-buf-count',
        '2',
      ]));
    });
    afterAll(async () => {
      await gw?.stop();
      killAllChildren();
    });

    it('announces RDMA and the azure backend in the banner', () => {
      expect(gw.stdout()).toMatch(/^\s*rdma:\s+softnic on 127\.0\.0\.1/m);
      expect(gw.stdout()).toMatch(/^\s*backend:\s+azure \(/m);
    });

    for (const [label, size, sizeArg] of [
      ['4 MiB (one Put Blob)', 4 * MiB, '4MiB'],
      ['20 MiB (three staged blocks)', 20 * MiB, '20MiB'],
    ] as const) {
      it(`passes a verified cuobjtest RDMA PUT+GET of ${label}; the blob is in Blob Storage`, async () => {
        const bucket = `rdma-azure-${size / MiB}`;
        await expectRdmaRoundTrip(gw.url, KEYS, { bucket, key: 'roundtrip' }, sizeArg, size);
        const direct = new AzureBackend({ account: AZURITE_ACCOUNT, key: azurite.key, url: azurite.url });
        const ctx = {
          account: { access: KEYS.access, role: 'admin' as const },
          requestId: 't',
          signal: new AbortController().signal,
        };
        try {
          const info = await direct.headObject(ctx, { bucket, key: 'roundtrip' });
          expect(info.size).toBe(size);
          expect(info.etag).toMatch(/^"[0-9a-f]{32}"$/);
        } finally {
          await direct.shutdown();
        }
      });
    }
  },
);
