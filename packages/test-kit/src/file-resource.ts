// A resource a whole test file shares, as the file's hooks: `useFileResource(what, start, stop)`
// registers a beforeAll that starts it and an afterAll that stops it (only when it started), and
// returns a getter for the file's hooks and tests, which says what is missing when called before
// the start. Vitest runs before-hooks in the order they were registered and after-hooks in
// reverse: register it before the hooks that use it, and their teardown runs before its stop.
import { afterAll, beforeAll } from 'vitest';

/** Registers the hooks; `timeoutMs` bounds the start (the project's hookTimeout when omitted). */
export function useFileResource<T>(
  what: string,
  start: () => Promise<T>,
  stop: (resource: T) => Promise<unknown>,
  timeoutMs?: number,
): () => T {
  let started: { readonly resource: T } | undefined;
  beforeAll(async () => {
    started = { resource: await start() };
  }, timeoutMs);
  afterAll(async () => {
    if (started) await stop(started.resource);
  });
  return () => {
    if (started === undefined) throw new Error(`${what} is not started yet (use it in a hook or test)`);
    return started.resource;
  };
}
