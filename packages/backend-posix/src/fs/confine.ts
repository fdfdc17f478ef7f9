// Keeps every path the backend touches inside its root. Keys and bucket names are checked for
// '..', '.' and NUL (layout.ts), but a symlink planted inside the tree (by an operator, another
// program, a shared filesystem) could still lead a read, a write or a delete outside the root:
// the deepest existing part of each path must resolve, links followed, to the root or below it.
// A check-then-use race with someone creating links concurrently is not covered (Node has no
// openat2/RESOLVE_BENEATH); links that are already there are.
import { realpathSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { S3Error } from '@vgwrdma/backend-contract';

const realRoots = new Map<string, string>();

/**
 * The directory a path under `root` must stay in with bucket links: the real path of its bucket
 * directory (resolved on each call: a link may be changed), or the root's for the root itself.
 */
function bucketBase(root: string, path: string): string | undefined {
  const rest = path.slice(root.length + 1);
  if (!path.startsWith(root + sep) || rest === '') return realRoot(root);
  const bucketDir = `${root}${sep}${rest.split(sep, 1)[0]}`;
  try {
    return realpathSync.native(bucketDir);
  } catch {
    return realRoot(root); // no such bucket (yet): judged against the root
  }
}

function realRoot(root: string): string | undefined {
  let real = realRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync.native(root);
    } catch {
      return undefined; // not created yet: nothing under it can be a link
    }
    realRoots.set(root, real);
  }
  return real;
}

/**
 * `path` (already joined under `root`), or AccessDenied when it resolves outside the root. With
 * `bucketLinks` (versitygw's --bucketlinks) a bucket directory may be a symlink: a path inside a
 * bucket must then resolve inside the bucket's real directory (where the link leads), so a key
 * can still never leave its bucket — neither to the rest of the root nor through a link below it.
 */
export function confine(root: string, path: string, bucketLinks = false): string {
  const base = bucketLinks ? bucketBase(root, path) : realRoot(root);
  if (base === undefined) return path;
  for (let p = path; ; p = dirname(p)) {
    let real: string;
    try {
      real = realpathSync.native(p);
    } catch {
      if (p === root || dirname(p) === p) return path;
      continue; // not there (yet): judge the nearest parent that is
    }
    if (real !== base && !real.startsWith(base + sep)) throw new S3Error('AccessDenied');
    return path;
  }
}
