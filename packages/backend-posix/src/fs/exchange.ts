// Publishing over an existing object by renameat2(RENAME_EXCHANGE) instead of rename(). ext4
// (auto_da_alloc, the default) flushes the new file's delayed-allocation blocks inside a
// rename() that replaces a file — it starts writeback of every dirty page of the new object
// before returning: ~100 ms for 256 MiB, and more while other writeback runs, all on the PUT's
// critical path. Exchanging the two names is just as atomic for readers (the old object until
// the call, the new one after) and flushes nothing; the old object ends up under the temp name
// and is unlinked after the request, like any temp file (a crash leaves it to the start-up
// cleanup of dead owners' temp files). Node has no renameat2: libc's (declared in @vgwrdma/native), on the libuv pool.
import { lstat } from 'node:fs/promises';
import { AT_FDCWD, RENAME_EXCHANGE, renameat2Call } from '@vgwrdma/native';

const renameat2 = renameat2Call();

function exchange(a: string, b: string): Promise<boolean> {
  return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE).then(
    (rc) => rc === 0,
    () => false,
  );
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Puts the file at `fromAbs` at `targetAbs` when a regular file is there, by exchanging the two;
 * returns true when it did (the replaced file is now at `fromAbs`, for the caller to unlink).
 * False, with nothing changed, when the target is absent or not a regular file, or the file
 * system cannot exchange: the caller renames as before (and gets its errors).
 */
export async function exchangeOntoFile(fromAbs: string, targetAbs: string): Promise<boolean> {
  if (!(await isFile(targetAbs))) return false;
  if (!(await exchange(fromAbs, targetAbs))) return false;
  if (await isFile(fromAbs)) return true;
  // The target became something else (a directory) between the check and the exchange: put it
  // back where it was and let rename() report it.
  await exchange(fromAbs, targetAbs);
  return false;
}
