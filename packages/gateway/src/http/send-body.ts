// Streams a GET body into the Node response with Readable.pipe (backpressure included) and the
// gateway's one 'close' hook, instead of stream.pipeline: pipeline adds seven 'close' listeners
// to the response, which with the middlewares' own made Node warn (MaxListenersExceededWarning)
// on every GET that streams. Same contract as pipeline: settles when the response finished;
// fails when the body fails (the response is destroyed: the client sees a short body) or when the
// client goes away first (the body is destroyed, so its file descriptor is released).
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { onResponseClose } from './response-close.js';

export function sendBody(body: Readable, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (err?: Error): void => {
      if (settled) return;
      settled = true;
      if (err === undefined) resolve();
      else reject(err);
    };
    // Kept after settling: a body destroyed late may still emit, and an unheard 'error' throws.
    body.on('error', (err) => {
      if (!res.destroyed) res.destroy();
      settle(err);
    });
    res.on('error', (err) => {
      body.destroy();
      settle(err);
    });
    onResponseClose(res, () => {
      if (res.writableFinished) return settle();
      body.destroy();
      settle(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
    body.pipe(res);
  });
}
