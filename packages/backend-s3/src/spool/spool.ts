// A spool holds one stretch of a request body whose length was not known up front, so it can be
// sent upstream with an exact Content-Length: the first `memoryBytes` in memory, the rest in a
// temp file. The file is unlinked as soon as it is opened (only its descriptor keeps it), so a
// gateway that dies mid-upload leaves nothing behind in the spool directory.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';

export interface SpoolOptions {
  /** Bytes kept in memory before the spool spills to a temp file. */
  readonly memoryBytes: number;
  /** Directory of the temp file. */
  readonly dir: string;
}

export class Spool {
  private readonly chunks: Buffer[] = [];
  private inMemory = 0;
  private file: FileHandle | undefined;
  private inFile = 0;
  private disposed = false;

  constructor(private readonly options: SpoolOptions) {}

  /** Bytes held. */
  get size(): number {
    return this.inMemory + this.inFile;
  }

  /** Whether part of the content lives in a temp file. */
  get spilled(): boolean {
    return this.file !== undefined;
  }

  async write(chunk: Buffer): Promise<void> {
    if (this.disposed) throw new Error('spool already disposed');
    if (this.file === undefined && this.inMemory + chunk.length <= this.options.memoryBytes) {
      this.chunks.push(chunk);
      this.inMemory += chunk.length;
      return;
    }
    const file = this.file ?? (await this.openFile());
    let offset = 0;
    while (offset < chunk.length) {
      const { bytesWritten } = await file.write(chunk, offset, chunk.length - offset, this.inFile);
      offset += bytesWritten;
      this.inFile += bytesWritten;
    }
  }

  /** The content from its first byte: the memory part, then the file. Readable once per call. */
  body(): Readable {
    const memory = [...this.chunks];
    const file = this.file;
    const inFile = this.inFile;
    async function* content(): AsyncGenerator<Buffer> {
      yield* memory;
      if (file === undefined || inFile === 0) return;
      yield* createReadStream('', { fd: file, start: 0, end: inFile - 1, autoClose: false });
    }
    const body = Readable.from(content(), { objectMode: false });
    // An upload aborted mid-body (the client went away) destroys this stream while the SDK no
    // longer listens: its 'Premature close' must not become an unhandled 'error' event. Readers
    // still see the error through their own listeners.
    body.on('error', () => undefined);
    return body;
  }

  /** Frees the memory and closes (so removes) the temp file. Safe to call twice. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.chunks.length = 0;
    this.inMemory = 0;
    const file = this.file;
    this.file = undefined;
    await file?.close().catch(() => undefined);
  }

  private async openFile(): Promise<FileHandle> {
    const path = join(this.options.dir, `vgw-spool-${randomBytes(8).toString('hex')}`);
    const file = await open(path, 'wx+', 0o600);
    await unlink(path).catch(() => undefined);
    this.file = file;
    return file;
  }
}
