// Reading Node's IncomingHttpHeaders the way SigV4 sees them: one string per header, repeated
// values joined with ',' (Node already joins most repeats with ', ').
import type { RequestHeaders } from './types.js';

export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  // Own entries only: Node's headers object inherits Object.prototype (constructor, ...).
  const value = Object.hasOwn(headers, name) ? headers[name] : undefined;
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(',');
}
