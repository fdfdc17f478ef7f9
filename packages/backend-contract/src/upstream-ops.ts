// Backends in front of another store (backend-s3, backend-azure) keep each operation in an ops
// module as a function of the upstream and the Backend method's own arguments:
// `listBuckets(up, ctx, input)`. installUpstreamOps gives a backend class one prototype method
// per such function, named as the Backend method it serves, instead of a hand-written line per
// method in each backend. An ops module declares each such function as `UpstreamOp<U, M>`, so its
// parameter and result types are the contract's (not restated per backend); the compiler also
// checks every export whose name is a Backend method against that method's signature, and other
// exports of an ops module (helpers) are left alone.
import { InvalidArgumentError } from '@vgwrdma/errors';
import type { Backend, BackendMethod } from './backend.js';
import { BACKEND_METHODS } from './backend-methods.js';

/** The function serving Backend method M: the upstream first, then the method's arguments. */
export type UpstreamOp<U, M extends BackendMethod> = (
  up: U,
  ...args: Parameters<Backend[M]>
) => ReturnType<Backend[M]>;

/** An ops module as the installer sees it: any of the Backend methods, as upstream ops. */
export type UpstreamOps<U> = { readonly [M in BackendMethod]?: UpstreamOp<U, M> };

/**
 * Installs, on `cls.prototype`, each Backend method that one of `modules` exports, calling it
 * with `upstreamOf(this)`. A method the class itself defines wins (it is not replaced); two
 * modules exporting the same method is a programming error and throws.
 */
export function installUpstreamOps<U, B extends Backend>(
  cls: { readonly name: string; readonly prototype: B }, // a class; its constructor may be private
  upstreamOf: (backend: B) => U,
  modules: readonly UpstreamOps<U>[],
): void {
  const installed = new Set<BackendMethod>();
  for (const mod of modules) {
    for (const method of BACKEND_METHODS) {
      const op = mod[method] as ((up: U, ...args: unknown[]) => unknown) | undefined;
      if (op === undefined) continue;
      if (installed.has(method))
        throw new InvalidArgumentError(`${cls.name}: two ops modules serve ${method}`);
      if (Object.hasOwn(cls.prototype, method)) continue;
      installed.add(method);
      Object.defineProperty(cls.prototype, method, {
        value(this: B, ...args: unknown[]): unknown {
          return op(upstreamOf(this), ...args);
        },
        writable: true,
        configurable: true,
      });
    }
  }
}
