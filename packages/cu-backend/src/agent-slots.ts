// The per-agent cap on concurrent RDMA transfers (--rdma-max-per-agent): one agent (address and
// port) holds at most `max` slots at once, so a slow or hostile agent can never take the whole
// pool from the others. A request over the cap waits for one of its agent's slots as long as it
// would wait for a pool buffer (first come, first served), then is declined. A slot is held from
// before the pool wait until the transfer's last native call settled (a transfer abandoned at its
// deadline keeps its slot until then).

import type { AgentEndpoint } from './agent-policy.js';

export interface SlotWait {
  /** Longest wait in ms (0 = only if a slot is free now). */
  readonly timeoutMs: number;
  /** Aborting ends the wait with the signal's reason. */
  readonly signal?: AbortSignal;
}

interface AgentState {
  held: number;
  readonly waiters: ((release: () => void) => void)[];
}

export class AgentSlots {
  private readonly agents = new Map<string, AgentState>();

  constructor(readonly max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`maxPerAgent must be ≥ 1, got ${max}`);
  }

  /** A slot of `agent`: its release function, or undefined when none came free within the wait. */
  take(agent: AgentEndpoint, wait: SlotWait): Promise<(() => void) | undefined> {
    const key = `${agent.host}:${agent.port}`;
    let state = this.agents.get(key);
    if (!state) {
      state = { held: 0, waiters: [] };
      this.agents.set(key, state);
    }
    const s = state;
    if (s.held < this.max && s.waiters.length === 0) {
      s.held++;
      return Promise.resolve(this.releaser(key, s));
    }
    if (wait.timeoutMs <= 0 || wait.signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const grant = (release: () => void) => {
        done();
        resolve(release);
      };
      const done = () => {
        clearTimeout(timer);
        wait.signal?.removeEventListener('abort', onAbort);
        const i = s.waiters.indexOf(grant);
        if (i >= 0) s.waiters.splice(i, 1);
        this.forget(key, s);
      };
      const timer = setTimeout(() => {
        done();
        resolve(undefined);
      }, wait.timeoutMs);
      const onAbort = () => {
        done();
        reject(wait.signal?.reason);
      };
      wait.signal?.addEventListener('abort', onAbort, { once: true });
      s.waiters.push(grant);
    });
  }

  /** Slots held now, all agents together. */
  get inUse(): number {
    let n = 0;
    for (const s of this.agents.values()) n += s.held;
    return n;
  }

  /** The function that gives one slot back (to the agent's oldest waiter, if any). Idempotent. */
  private releaser(key: string, s: AgentState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = s.waiters[0];
      if (next)
        next(this.releaser(key, s)); // the slot passes on: `held` is unchanged
      else {
        s.held--;
        this.forget(key, s);
      }
    };
  }

  private forget(key: string, s: AgentState): void {
    if (s.held === 0 && s.waiters.length === 0) this.agents.delete(key);
  }
}
