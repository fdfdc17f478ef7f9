// versitygw's posix --concurrency: at most N backend operations run at once; the others wait
// their turn, first come first served. An operation holds its slot until its promise settles —
// a PutObject until its body has been stored, a GetObject until the object is open (streaming
// the body to the client does not hold a slot). Reading the limit is the backend's business, so
// it wraps any Backend as a DelegatingBackend and leaves the backend itself unchanged.
import { BACKEND_METHODS, type Backend, DelegatingBackend } from '@vgwrdma/backend-contract';
import { InvalidArgumentError } from '@vgwrdma/errors';
import { Slots } from './slots.js';

/** versitygw's default for --concurrency. */
export const DEFAULT_POSIX_CONCURRENCY = 5000;

export class ConcurrencyLimitedBackend extends DelegatingBackend {
  /** @internal */
  readonly slots: Slots;
  constructor(
    inner: Backend,
    readonly maxConcurrent: number,
  ) {
    super(inner);
    if (!Number.isSafeInteger(maxConcurrent) || maxConcurrent < 1)
      throw new InvalidArgumentError(`concurrency must be a positive integer, got ${maxConcurrent}`);
    this.slots = new Slots(maxConcurrent);
  }
}

for (const method of BACKEND_METHODS) {
  Object.defineProperty(ConcurrencyLimitedBackend.prototype, method, {
    async value(this: ConcurrencyLimitedBackend, ...args: unknown[]): Promise<unknown> {
      return this.slots.run(() =>
        (this.inner[method] as (...a: unknown[]) => Promise<unknown>).apply(this.inner, args),
      );
    },
    writable: true,
    configurable: true,
  });
}

/** `backend` with at most `max` operations in flight. */
export function limitConcurrency(backend: Backend, max: number): ConcurrencyLimitedBackend {
  return new ConcurrencyLimitedBackend(backend, max);
}
