// UnsupportedBackend: every operation answers NotImplemented. Backends extend it and implement
// what they support; decorators extend it and override what they change.
import type { Backend, BackendOperations } from './backend.js';
import { BACKEND_METHODS } from './backend-methods.js';
import { S3Error } from './errors/s3-error.js';

// Declaration merging gives the class every Backend method's type; the loop below gives the
// prototype an implementation of each. The operation interfaces are merged as they are (not via
// Omit<Backend, ...>, a mapped type that turns methods into properties), so a subclass can
// override them with ordinary methods.
export interface UnsupportedBackend extends BackendOperations {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: intended, as before BackendOperations named the four interfaces; the prototype loop below gives every merged method a body.
export class UnsupportedBackend implements Backend {
  readonly name: string = 'unsupported';

  async shutdown(): Promise<void> {}
}

async function notImplemented(): Promise<never> {
  throw new S3Error('NotImplemented');
}

for (const method of BACKEND_METHODS) {
  Object.defineProperty(UnsupportedBackend.prototype, method, {
    value: notImplemented,
    writable: true,
    configurable: true,
  });
}
