// The body idle timeout: a request body that delivers nothing for `ms` while the gateway is ready
// to take it is given up on (S3's RequestTimeout), so a client trickling a byte now and then
// cannot hold a temp file, a request slot and a connection for as long as it likes. Time the
// gateway itself is not reading (backpressure: a consumer that is still busy) does not count.
import type { Readable, Writable } from 'node:stream';

/** Settings of one watch. */
interface IdleWatch {
  /** The bytes off the wire (the HTTP request). */
  readonly source: Readable;
  /** The stage that reads `source`; while it refuses more (backpressure) the client is not idle. */
  readonly reader?: Writable;
  /** Milliseconds without a byte before `onIdle`; 0 or less: never. */
  readonly ms: number;
  /** Called at most once. */
  readonly onIdle: () => void;
}

/** True while the gateway is holding the client back (so silence is ours, not the client's). */
function heldBack(source: Readable, reader: Writable | undefined): boolean {
  return source.readableFlowing === false || reader?.writableNeedDrain === true;
}

/** Watches `source` until it ends, closes or fails, or `onIdle` has run; returns a stop(). */
export function watchIdle({ source, reader, ms, onIdle }: IdleWatch): () => void {
  if (!(ms > 0) || source.readableEnded || source.destroyed) return () => {};
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(fire, ms);
  };
  const stop = (): void => {
    clearTimeout(timer);
    source.off('data', arm);
    source.off('end', stop);
    source.off('close', stop);
    source.off('error', stop);
  };
  function fire(): void {
    if (heldBack(source, reader)) {
      arm();
      return;
    }
    stop();
    onIdle();
  }
  source.on('data', arm);
  source.once('end', stop);
  source.once('close', stop);
  source.once('error', stop);
  arm();
  return stop;
}
