// MetaStore in a sidecar tree (--sidecar DIR), for filesystems without user xattrs: attribute
// `a` of `<bucket>/<key>` is the file `<DIR>/<bucket>/<key>/meta/a` (bucket attributes:
// `<DIR>/<bucket>/meta/a`), the same layout versitygw's sidecar option uses. Unlike xattrs the
// attributes do not travel with a rename, so publish calls `moved` to carry them over.
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { MetaStore } from './store.js';

const META_DIR = 'meta';

function isErrno(err: unknown, ...codes: string[]): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && codes.includes(code);
}

export class SidecarStore implements MetaStore {
  readonly kind = 'sidecar';
  constructor(private readonly sidecar: string) {}

  private metaDir(rel: string): string {
    return join(this.sidecar, rel, META_DIR);
  }

  async get(rel: string, attr: string): Promise<Buffer | undefined> {
    try {
      return await readFile(join(this.metaDir(rel), attr));
    } catch (err) {
      if (isErrno(err, 'ENOENT', 'ENOTDIR')) return undefined;
      throw err;
    }
  }

  async set(rel: string, attr: string, value: Buffer | string): Promise<void> {
    const dir = this.metaDir(rel);
    await mkdir(dir, { recursive: true });
    // Write-then-rename so a reader never sees half a value.
    const tmp = join(dir, `.${attr}.${process.pid}.${Math.random().toString(36).slice(2)}`);
    await writeFile(tmp, value);
    await rename(tmp, join(dir, attr));
  }

  async remove(rel: string, attr: string): Promise<void> {
    await rm(join(this.metaDir(rel), attr), { force: true });
  }

  async list(rel: string): Promise<string[]> {
    try {
      return (await readdir(this.metaDir(rel))).filter((n) => !n.startsWith('.'));
    } catch (err) {
      if (isErrno(err, 'ENOENT', 'ENOTDIR')) return [];
      throw err;
    }
  }

  async moved(from: string, to: string): Promise<void> {
    const target = this.metaDir(to);
    // The published object replaces the old one: its old attributes go, the new ones come.
    await rm(target, { recursive: true, force: true });
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(this.metaDir(from), target);
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    await this.prune(from);
  }

  async dropped(rel: string): Promise<void> {
    await rm(this.metaDir(rel), { recursive: true, force: true });
    await this.prune(rel);
  }

  async movedTree(from: string, to: string): Promise<void> {
    const target = join(this.sidecar, to);
    await rm(target, { recursive: true, force: true });
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(join(this.sidecar, from), target);
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    await this.prune(dirname(from));
  }

  async droppedTree(rel: string): Promise<void> {
    await rm(join(this.sidecar, rel), { recursive: true, force: true });
    await this.prune(dirname(rel));
  }

  /** Removes `<DIR>/<rel>` and its now-empty parents, stopping at the bucket's directory. */
  private async prune(rel: string): Promise<void> {
    let cur = rel;
    while (cur.includes('/')) {
      try {
        await rmdir(join(this.sidecar, cur));
      } catch {
        return;
      }
      cur = dirname(cur);
    }
  }
}
