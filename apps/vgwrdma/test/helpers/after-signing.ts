// afterSigning: edits a command's wire request after the AWS SDK signed it — the way the hostile
// tests slip in headers the signature does not cover (an attacker replaying a signed request).
// The edit runs on every send of the command, just before the request leaves.

/** What afterSigning needs of an SDK command: its middleware stack. */
export interface Stackable {
  middlewareStack: {
    addRelativeTo(mw: never, opts: { relation: 'after'; toMiddleware: string; name: string }): void;
  };
}

type Next = (args: unknown) => Promise<unknown>;

/** Registers `edit` on `cmd`'s request headers, after the signing middleware; returns `cmd`. */
export function afterSigning<C extends Stackable>(
  cmd: C,
  edit: (headers: Record<string, string>) => void,
): C {
  const mw = (next: Next) => async (args: unknown) => {
    edit((args as { request: { headers: Record<string, string> } }).request.headers);
    return next(args);
  };
  cmd.middlewareStack.addRelativeTo(mw as never, {
    relation: 'after',
    toMiddleware: 'httpSigningMiddleware',
    name: 'editAfterSigning',
  });
  return cmd;
}
