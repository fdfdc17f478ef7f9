// MetaStore in a sidecar tree (--sidecar DIR), for filesystems without user xattrs: attribute
// `a` of `<bucket>/<key>` is the file `<DIR>/<bucket>/<key>/meta/a` (bucket attributes:
// `<DIR>/<bucket>/meta/a`), versitygw's sidecar layout except that key segments named `meta~*`
// are escaped so no key reaches another path's attributes (sidecar-path.ts; trees written
// before are converted at open by sidecar-migrate.ts). Unlike xattrs the attributes do not
// travel with a rename, so publish calls `moved` to carry them over.
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { assertSidecarFits, attrDir, sidecarRel } from './sidecar-path.js';
import type { MetaStore } from './store.js';

function isErrno(err: unknown, ...codes: string[]): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && codes.includes(code);
}

export class SidecarStore implements MetaStore {
  readonly kind = 'sidecar';
  constructor(private readonly sidecar: string) {}

  private metaDir(rel: string): string {
    return attrDir(this.sidecar, rel);
  }

  admit(rel: string): void {
    assertSidecarFits(rel);
  }

  async get(rel: string, attr: string): Promise<Buffer | undefined> {
    try {
      return await readFile(join(this.metaDir(rel), attr));
    } catch (err) {
      // EISDIR: a directory where the file belongs is no attribute (an old-layout key's
      // metadata, written by a gateway that does not escape `meta` segments).
      if (isErrno(err, 'ENOENT', 'ENOTDIR', 'EISDIR')) return undefined;
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
      const entries = await readdir(this.metaDir(rel), { withFileTypes: true });
      return entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name);
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
    await this.prune(sidecarRel(from));
  }

  async dropped(rel: string): Promise<void> {
    await rm(this.metaDir(rel), { recursive: true, force: true });
    await this.prune(sidecarRel(rel));
  }

  async movedTree(from: string, to: string): Promise<void> {
    const target = join(this.sidecar, sidecarRel(to));
    await rm(target, { recursive: true, force: true });
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(join(this.sidecar, sidecarRel(from)), target);
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    await this.prune(dirname(sidecarRel(from)));
  }

  async droppedTree(rel: string): Promise<void> {
    await rm(join(this.sidecar, sidecarRel(rel)), { recursive: true, force: true });
    await this.prune(dirname(sidecarRel(rel)));
  }

  /**
   * Removes `<DIR>/<srel>` (a path already mapped by sidecarRel) and its now-empty parents,
   * stopping at the bucket's directory.
   */
  private async prune(srel: string): Promise<void> {
    let cur = srel;
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
