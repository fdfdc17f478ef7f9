// The requests being served now, for the shutdown deadline: each S3 request registers its Node
// response and the promise of its handler (the request-limit middleware does). When the grace
// period ends with requests still running, cutAll() marks them — their access-log line then says
// status 499 and `cut: "shutdown"` — and counts them, the listener drops their connections, and
// settled() waits (bounded) for their handlers to unwind, so a cut upload's temp file is
// discarded by its own error path before the backend shuts down.
import type { ServerResponse } from 'node:http';

/** Responses cut at the shutdown deadline (read by the observe middleware). */
const cut = new WeakSet<ServerResponse>();

/** Whether this response was cut because the shutdown deadline came. */
export function wasCutAtShutdown(res: ServerResponse): boolean {
  return cut.has(res);
}

/** How long settled() waits for cut handlers to unwind after their connections are dropped. */
export const UNWIND_BOUND_MS = 5_000;

export class InFlightRequests {
  private readonly live = new Map<ServerResponse, Promise<unknown>>();
  /** Requests cut at the shutdown deadline, over the gateway's life. */
  cutCount = 0;

  /** Tracks `res` until its handler has settled and its response has closed. */
  track(res: ServerResponse, handler: Promise<unknown>): void {
    const done = Promise.allSettled([
      handler,
      new Promise<void>((resolve) => (res.closed ? resolve() : res.once('close', () => resolve()))),
    ]);
    this.live.set(res, done);
    void done.then(() => this.live.delete(res));
  }

  /** Marks every request still running as cut at the deadline; answers how many. */
  cutAll(): number {
    let n = 0;
    for (const res of this.live.keys()) {
      if (cut.has(res) || res.writableFinished) continue;
      cut.add(res);
      n++;
    }
    this.cutCount += n;
    return n;
  }

  /** Resolves once every tracked request has unwound, or after boundMs. */
  async settled(boundMs = UNWIND_BOUND_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, boundMs);
    });
    await Promise.race([Promise.allSettled([...this.live.values()]), bound]);
    clearTimeout(timer);
  }
}
