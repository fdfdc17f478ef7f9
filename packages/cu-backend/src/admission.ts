// Whether a request with an RDMA descriptor may use RDMA at all, decided before the pool wait and
// before any connection (docs/protocol.md "trust rules"), in this order:
//   anonymous request (or no origin)        → declined ('anonymous': 501 PUT / HTTP body GET)
//   agent not the peer's address / allowed  → 403 AccessDenied (thrown)
//   agent at --rdma-max-per-agent           → waits as long as for a pool buffer, then declined
//                                             ('agent-busy')
// An admitted request holds one of its agent's slots until release().

import type { RequestContext } from '@vgwrdma/backend-contract';
import type { DeclineReason } from '@vgwrdma/rdma-protocol';
import { type AgentPolicy, agentOf } from './agent-policy.js';
import type { AgentSlots, SlotWait } from './agent-slots.js';

type AdmissionOutcome =
  | { readonly kind: 'declined'; readonly reason: DeclineReason }
  | { readonly kind: 'admitted'; readonly release: () => void };

export class Admission {
  constructor(
    private readonly policy: AgentPolicy,
    private readonly slots: AgentSlots,
  ) {}

  /** Rejects with the 403 for an agent the request may not name; otherwise declined or admitted. */
  async admit(ctx: RequestContext, wait: Omit<SlotWait, 'signal'>): Promise<AdmissionOutcome> {
    const d = ctx.rdma;
    const origin = ctx.origin;
    if (!d || !origin || origin.anonymous) return { kind: 'declined', reason: 'anonymous' };
    const agent = agentOf(d);
    const refusal = this.policy.check(agent, origin.peerAddress);
    if (refusal || !agent) throw refusal;
    const release = await this.slots.take(agent, { ...wait, signal: ctx.signal });
    return release ? { kind: 'admitted', release } : { kind: 'declined', reason: 'agent-busy' };
  }
}
