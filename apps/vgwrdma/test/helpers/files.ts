// File helpers for the large-object tests: random files written in chunks (never one huge
// buffer) and streaming SHA-256 digests.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';

export async function writeRandomFile(path: string, size: number): Promise<void> {
  const out = createWriteStream(path);
  const chunk = 4 * 1024 * 1024;
  for (let written = 0; written < size; written += chunk) {
    if (!out.write(randomBytes(Math.min(chunk, size - written)))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function md5Hex(data: Uint8Array | string): string {
  return createHash('md5').update(data).digest('hex');
}
