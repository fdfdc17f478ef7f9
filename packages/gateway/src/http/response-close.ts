// One 'close' listener per Node response, whatever number of callers want to know when it closes:
// the request limit, the observation, the disconnect signal and the body writer each register a
// callback here instead of their own listener. A response with ten or more listeners of one event
// makes Node print MaxListenersExceededWarning (plain text in the JSON log stream) on every large
// GET; this keeps the gateway's share of 'close' listeners at one.
import type { ServerResponse } from 'node:http';

const callbacks = new WeakMap<ServerResponse, Array<() => void>>();

/** Calls `fn` once when `res` emits 'close' (finished, or cut by the client); at once if it has closed. */
export function onResponseClose(res: ServerResponse, fn: () => void): void {
  if (res.closed) {
    fn();
    return;
  }
  const list = callbacks.get(res);
  if (list) {
    list.push(fn);
    return;
  }
  const fresh = [fn];
  callbacks.set(res, fresh);
  res.once('close', () => {
    callbacks.delete(res);
    for (const f of fresh) f();
  });
}

const signals = new WeakMap<ServerResponse, AbortSignal>();

/**
 * An AbortSignal that fires (with `reason()`) when the client goes away before the response is
 * complete; one per response, however many times it is asked for.
 */
export function disconnectSignalOf(res: ServerResponse, reason: () => unknown): AbortSignal {
  const known = signals.get(res);
  if (known) return known;
  const ac = new AbortController();
  signals.set(res, ac.signal);
  onResponseClose(res, () => {
    if (!res.writableFinished) ac.abort(reason());
  });
  return ac.signal;
}
