// What a crash or kill -9 leaves in `<bucket>/.sgwtmp`, cleared when a gateway opens the tree —
// without touching what another gateway sharing the tree is writing right now. A top-level temp
// file is removed when its owner (fs/owner.ts, in the name) is a dead process of this host and
// pid namespace, or when nobody has written to it for `maxAgeMs`. A multipart claim
// (`<id>.<etag>.inprogress`, owner in an attribute) is given back by the same rule; so is an
// `.aborting` directory removed. Live upload directories are never touched.
import type { Dirent } from 'node:fs';
import { lstat, readdir, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ATTR } from '../meta/attr-names.js';
import { getText, type MetaStore } from '../meta/store.js';
import { isErrno } from './errors.js';
import { MULTIPART_DIR, TMP_DIR } from './layout.js';
import { ownerIsDead, parseOwner } from './owner.js';

/** Default age past which an entry of unknown or foreign ownership counts as abandoned. */
export const STALE_TEMP_AGE_MS = 60 * 60 * 1000;

export interface StaleTempOptions {
  /** Age (since the last write, or the claim) past which anyone's entry is removed. */
  readonly maxAgeMs?: number;
  /** Clock, for tests. */
  readonly now?: number;
}

interface Policy {
  readonly maxAgeMs: number;
  readonly now: number;
}

/** An entry may go when its owner is certainly dead, or when it is older than the limit. */
function abandoned(owner: string | undefined, changedMs: number, p: Policy): boolean {
  if (owner !== undefined && ownerIsDead(parseOwner(owner))) return true;
  return p.now - changedMs > p.maxAgeMs;
}

/** The owner part of a temp file name `<owner>.<random>`; undefined for older, unmarked names. */
function tempOwner(name: string): string | undefined {
  const dot = name.indexOf('.');
  return dot > 0 ? name.slice(0, dot) : undefined;
}

/**
 * Removes the abandoned top-level files of every `<bucket>/.sgwtmp` and releases abandoned
 * multipart claims. Returns how many temp files were removed.
 */
export async function cleanStaleTemps(
  root: string,
  meta: MetaStore,
  options: StaleTempOptions = {},
): Promise<number> {
  const policy: Policy = { maxAgeMs: options.maxAgeMs ?? STALE_TEMP_AGE_MS, now: options.now ?? Date.now() };
  let removed = 0;
  for (const b of await readdir(root, { withFileTypes: true })) {
    if (!b.isDirectory() || b.name.startsWith('.')) continue;
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, b.name, TMP_DIR), { withFileTypes: true });
    } catch (err) {
      if (isErrno(err, 'ENOENT', 'ENOTDIR')) continue;
      throw err;
    }
    await releaseStaleClaims(root, meta, join(b.name, TMP_DIR, MULTIPART_DIR), policy);
    for (const e of entries) {
      if (e.isDirectory()) continue;
      const rel = `${b.name}/${TMP_DIR}/${e.name}`;
      const st = await lstat(join(root, rel)).catch(() => undefined);
      if (st === undefined || !abandoned(tempOwner(e.name), st.mtimeMs, policy)) continue;
      await unlink(join(root, rel)).catch(() => undefined);
      await meta.dropped(rel).catch(() => undefined);
      removed++;
    }
  }
  return removed;
}

const CLAIM_RE = /^([A-Za-z0-9_-]+)\.[^/]+\.inprogress$/;
const ABORTING_RE = /^[A-Za-z0-9_-]+\.aborting$/;

/**
 * A complete or abort that died midway leaves its upload renamed. An abandoned claim
 * (`<id>.<etag>.inprogress`) is given back to `<id>`, so the upload can be completed or aborted
 * again (a waiting complete would otherwise wait forever); an abandoned `.aborting` directory is
 * removed. The claim's age is its ctime (the rename), since completing writes nothing inside it.
 */
async function releaseStaleClaims(
  root: string,
  meta: MetaStore,
  multipartRel: string,
  policy: Policy,
): Promise<void> {
  let hashes: string[];
  try {
    hashes = await readdir(join(root, multipartRel));
  } catch {
    return;
  }
  for (const hash of hashes) {
    const hashRel = `${multipartRel}/${hash}`;
    let names: string[];
    try {
      names = await readdir(join(root, hashRel));
    } catch {
      continue;
    }
    for (const name of names) {
      const rel = `${hashRel}/${name}`;
      const claim = CLAIM_RE.exec(name);
      if (!claim && !ABORTING_RE.test(name)) continue;
      const st = await lstat(join(root, rel)).catch(() => undefined);
      if (st === undefined) continue;
      const owner = await getText(meta, rel, ATTR.claimOwner).catch(() => undefined);
      if (!abandoned(owner, st.ctimeMs, policy)) continue;
      if (claim?.[1] && !names.includes(claim[1])) {
        const back = `${hashRel}/${claim[1]}`;
        await rename(join(root, rel), join(root, back)).catch(() => undefined);
        await meta.movedTree(rel, back).catch(() => undefined);
        await meta.remove(back, ATTR.claimOwner).catch(() => undefined);
      } else {
        await rm(join(root, rel), { recursive: true, force: true });
        await meta.droppedTree(rel).catch(() => undefined);
      }
    }
  }
}
