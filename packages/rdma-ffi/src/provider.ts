// Transport providers behind the shim ABI (vgw_shim_common.h vgw_provider_t), by name.

import { InvalidArgumentError } from '@vgwrdma/errors';

/** softnic: software NIC (TCP agent + same-host process_vm_*); cuobj: NVIDIA library; verbs: ibverbs DC. */
export type RdmaProvider = 'softnic' | 'cuobj' | 'verbs';

/** vgw_provider_t values. */
export const PROVIDER_ID: Readonly<Record<RdmaProvider, number>> = { softnic: 0, cuobj: 1, verbs: 2 };

/** Provider name for an id; throws for an unknown one. */
export function providerName(id: number): RdmaProvider {
  const hit = (Object.entries(PROVIDER_ID) as [RdmaProvider, number][]).find(([, v]) => v === id);
  if (!hit) throw new InvalidArgumentError(`unknown provider id ${id}`);
  return hit[0];
}
