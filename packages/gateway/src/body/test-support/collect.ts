// Test support: drains a decoded stream and reports what a consumer saw: the bytes, whether
// 'end' fired, and the error (if any).
import type { Readable } from 'node:stream';

export interface Collected {
  data: Buffer;
  ended: boolean;
  error: (Error & { code?: string }) | undefined;
}

export function collect(stream: Readable): Promise<Collected> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let ended = false;
    stream.on('data', (part: Buffer) => parts.push(part));
    stream.on('end', () => {
      ended = true;
    });
    stream.on('error', (error: Error) => resolve({ data: Buffer.concat(parts), ended, error }));
    stream.on('close', () => {
      if (!stream.errored) resolve({ data: Buffer.concat(parts), ended, error: undefined });
    });
  });
}
