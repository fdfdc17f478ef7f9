// An attribute that does not fit: ext4 keeps all of a file's xattrs in one 4 KiB block and answers
// ENOSPC past it (E2BIG past 64 KiB anywhere). ENOSPC also means a full disk, so it counts as "does
// not fit" only while the filesystem has free blocks; a full disk stays InsufficientStorage (507).
import { statfsSync } from 'node:fs';
import { S3Error } from '@vgwrdma/backend-contract';
import { isErrno } from '../fs/errors.js';

/** Free blocks below which an ENOSPC is taken for a full disk (one xattr block would fit above). */
const FREE_BLOCKS = 16;

/** Whether `err`, from setting an attribute on `path`, means the value does not fit (not a full disk). */
export function attrDoesNotFit(err: unknown, path: string): boolean {
  if (isErrno(err, 'E2BIG')) return true;
  if (!isErrno(err, 'ENOSPC')) return false;
  try {
    return statfsSync(path).bavail >= FREE_BLOCKS;
  } catch {
    return false;
  }
}

/** The answer for object attributes that do not fit: a 400, nothing is stored. */
export function attrsTooLarge(cause: unknown): S3Error {
  return S3Error.custom(
    'MetadataTooLarge',
    "Your metadata headers exceed the maximum allowed metadata size: the object's metadata, tags and " +
      'system headers together do not fit in the extended attributes of this filesystem.',
    { cause },
  );
}

/** Whether `err` is attrsTooLarge's answer (a MetadataTooLarge caused by the filesystem). */
export function isAttrsTooLarge(err: unknown): boolean {
  return err instanceof S3Error && err.code === 'MetadataTooLarge' && isErrno(err.cause, 'ENOSPC', 'E2BIG');
}
