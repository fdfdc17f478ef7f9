// GATEWAY_OPTIONS: createGateway() checks an embedder's plain values once, with the schema vgwrdma
// derives its flags from. A bad value is a coded InvalidArgumentError naming the field, thrown
// before anything is built; good values (a program's numbers in ms, bytes) are taken as given.
import { isVgwrdmaError } from '@vgwrdma/errors';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { describe, expect, it } from 'vitest';
import { staticCredentials } from '../src/auth/index.js';
import { createGateway } from '../src/create-gateway.js';
import type { GatewayOptions } from '../src/gateway-options.js';
import { GATEWAY_OPTIONS, gatewaySettings } from '../src/gateway-settings.js';

const credentials = staticCredentials([{ access: 'a', secret: 's' }]);

/** What createGateway throws for `extra` (undefined when it builds). */
function refusal(extra: Partial<GatewayOptions>): unknown {
  try {
    void createGateway({ backend: new MemoryBackend(), credentials, ...extra });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('createGateway settings', () => {
  it.each([
    [{ maxConnections: -1 }, 'maxConnections: must be a whole number (0 = no limit)'],
    [{ multipartMaxParts: 10_001 }, "multipartMaxParts: must be from 1 to 10000 (S3's own limit)"],
    [{ bodyIdleTimeoutMs: 1.5 }, 'bodyIdleTimeoutMs: must be a whole number of milliseconds'],
    [{ corsAllowOrigin: 'app.example' }, 'corsAllowOrigin: must be * or an origin'],
    [{ healthPath: 'health' }, "healthPath: must be a path starting with '/'"],
    [{ bucketStateCache: { ttlMs: -5 } }, 'bucketStateCache.ttlMs: must be a whole number of milliseconds'],
    [{ readonly: 'yes' as unknown as boolean }, 'readonly: '],
  ])('%j is refused by name, coded VGW_ERR_INVALID_ARGUMENT', (extra, message) => {
    const error = refusal(extra);
    expect(isVgwrdmaError(error, 'VGW_ERR_INVALID_ARGUMENT'), String(error)).toBe(true);
    expect((error as Error).message).toContain(`createGateway: ${message}`);
  });

  it("takes a program's values as given, and undefined as the default", () => {
    const given = {
      region: 'eu-west-3',
      maxConnections: 0,
      bodyIdleTimeoutMs: 250,
      shutdownTimeoutMs: 0,
      copyObjectThreshold: 1_048_576,
      bucketStateCache: { maxEntries: 8, ttlMs: 0 },
      virtualHostDomain: undefined, // as a JavaScript embedder may pass it
    };
    expect(refusal(given as unknown as Partial<GatewayOptions>)).toBeUndefined();
    const { virtualHostDomain: _, ...defined } = given;
    expect(gatewaySettings(given)).toEqual(defined);
  });

  it('reads the text of a flag in its own unit: seconds become milliseconds', () => {
    const parsed = GATEWAY_OPTIONS.parse({
      bodyIdleTimeoutMs: '0.5',
      bucketStateCache: '5',
      maxRequests: '7',
    });
    expect(parsed).toEqual({ bodyIdleTimeoutMs: 500, bucketStateCache: { ttlMs: 5000 }, maxRequests: 7 });
  });
});
