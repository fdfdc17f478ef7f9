// Whether CuServer may start an RDMA transfer for a request, decided before the pool wait and
// before any connection (docs/protocol.md "trust rules"). The trust decisions — anonymous caller,
// agent address policy — were made at the HTTP edge (rdma-edge.ts) and ride on the descriptor's
// grant; what is left here is the agent's share of the gateway:
//   no grant, or declined at the edge        → declined ('anonymous': 501 PUT / HTTP body GET)
//   agent at --rdma-max-per-agent            → waits as long as for a pool buffer, then declined
//                                              ('agent-busy')
// An admitted request holds one of its agent's slots until release().

import type { RequestContext } from '@vgwrdma/backend-contract';
import type { DeclineReason } from '@vgwrdma/rdma-protocol';
import type { AgentSlots, SlotWait } from './agent-slots.js';
import { rdmaRecordOf } from './rdma-grant.js';

type AdmissionOutcome =
  | { readonly kind: 'declined'; readonly reason: DeclineReason }
  | { readonly kind: 'admitted'; readonly release: () => void };

export class Admission {
  constructor(private readonly slots: AgentSlots) {}

  async admit(ctx: RequestContext, wait: Omit<SlotWait, 'signal'>): Promise<AdmissionOutcome> {
    const grant = rdmaRecordOf(ctx.rdma)?.grant;
    if (grant?.kind !== 'granted') return { kind: 'declined', reason: 'anonymous' };
    const release = await this.slots.take(grant.agent, { ...wait, signal: ctx.signal });
    return release ? { kind: 'admitted', release } : { kind: 'declined', reason: 'agent-busy' };
  }
}
