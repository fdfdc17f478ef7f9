// DelegatingBackend: every Backend method forwards to the wrapped backend unchanged. A decorator
// (cu-backend's CuServer) extends it and overrides only what it changes; new Backend methods are forwarded
// automatically because the prototype is filled from backend-contract's BACKEND_METHODS table.

import type { Backend, BackendOperations } from './backend.js';
import { BACKEND_METHODS } from './backend-methods.js';

// Declaration merging gives the class every operation's type; the loop below implements them.
export interface DelegatingBackend extends BackendOperations {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: intended, as before BackendOperations named the four interfaces; the prototype loop below gives every merged method a body.
export class DelegatingBackend implements Backend {
  readonly name: string;

  constructor(
    /** The backend every operation goes to unless a subclass overrides it. */
    readonly inner: Backend,
    name?: string,
  ) {
    this.name = name ?? inner.name;
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

for (const method of BACKEND_METHODS) {
  Object.defineProperty(DelegatingBackend.prototype, method, {
    value(this: DelegatingBackend, ...args: unknown[]): unknown {
      return (this.inner[method] as (...a: unknown[]) => unknown).apply(this.inner, args);
    },
    writable: true,
    configurable: true,
  });
}
