// The delivery queue on disk (`EventNotificationOptions.queueDir`, the app's --event-queue-dir), so
// a restart drops no event: each message is written as one file (`<time>-<seq>.json`, written
// to a temp name and renamed, so a crash leaves whole files only) before it is queued, and removed
// once it is delivered, given up or dropped. Shutdown leaves the files of messages not yet
// delivered; the next start loads them in order and sends them again — at-least-once: a message
// whose POST succeeded just before the process died may arrive twice.
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a queued message is about, for the logs. */
export interface EventAbout {
  readonly bucket: string;
  readonly key: string;
  /** S3's event name without the `s3:` prefix (ObjectCreated:Put, …). */
  readonly event: string;
}

export interface StoredMessage {
  readonly body: string;
  readonly about?: EventAbout;
}

const NAME = /^\d{13}-\d{6}\.json$/;

export class QueueStore {
  private seq = 0;
  private ready: Promise<unknown> | undefined;

  constructor(readonly dir: string) {}

  /** Writes one message; resolves to its file. */
  async save(message: StoredMessage): Promise<string> {
    this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.ready;
    this.seq = (this.seq + 1) % 1_000_000;
    const name = `${Date.now()}-${String(this.seq).padStart(6, '0')}.json`;
    const file = join(this.dir, name);
    const temp = join(this.dir, `.${name}.tmp`);
    await writeFile(temp, JSON.stringify(message), { mode: 0o600 });
    await rename(temp, file);
    return file;
  }

  async remove(file: string): Promise<void> {
    await unlink(file).catch(() => undefined);
  }

  /** The messages a previous run left, oldest first, with their files. */
  async load(): Promise<{ file: string; message: StoredMessage }[]> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => NAME.test(n)).sort();
    const out: { file: string; message: StoredMessage }[] = [];
    for (const name of names) {
      const file = join(this.dir, name);
      try {
        out.push({ file, message: JSON.parse(await readFile(file, 'utf8')) as StoredMessage });
      } catch {
        // Unreadable: leave it for an operator rather than guess.
      }
    }
    return out;
  }
}
