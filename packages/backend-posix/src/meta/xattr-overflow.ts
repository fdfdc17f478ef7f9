// Bucket documents larger than the filesystem keeps in an xattr (a 10 KB policy, a 64 KB CORS
// configuration on ext4's 4 KiB) are stored as a file in the bucket's temp area, which no key
// can reach (keys under .sgwtmp are refused) and which listings skip:
//   <root>/<bucket>/.sgwtmp/bucket-meta/<attr>.<sha256>
// and the xattr `user.<attr>` holds a marker naming the file by its SHA-256. The marker starts
// with a NUL byte, so no JSON or XML document reads as one, and versitygw sharing the tree fails
// closed on it (an unparseable policy) instead of ignoring the document. Writes go file first,
// marker second, old files last, serialised per bucket and attribute in this process; two
// gateways writing the same document at the same moment can leave a marker without its file,
// which reads as an error until the document is written again.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno } from '../fs/errors.js';
import { TMP_DIR } from '../fs/layout.js';
import { withKeyLock } from '../versioning/key-lock.js';
import { MetadataCorruptError } from './metadata-corrupt-error.js';

const OVERFLOW_DIR = 'bucket-meta';
const MARKER = Buffer.from('\0vgwrdma-overflow sha256=');

/** A bucket's own path (`bucket`, no slash): the only attributes that may overflow. */
export function isBucketRel(rel: string): boolean {
  return rel !== '' && !rel.includes('/');
}

function overflowDir(root: string, bucket: string): string {
  return join(root, bucket, TMP_DIR, OVERFLOW_DIR);
}

export function sha256(value: Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The marker to store as the xattr for `value`, once the file is written. */
export function markerFor(value: Buffer): Buffer {
  return Buffer.concat([MARKER, Buffer.from(sha256(value))]);
}

/** The SHA-256 a marker names, or undefined when `xattr` is a plain value. */
export function markedHash(xattr: Buffer): string | undefined {
  if (xattr.length !== MARKER.length + 64 || !xattr.subarray(0, MARKER.length).equals(MARKER))
    return undefined;
  return xattr.subarray(MARKER.length).toString('latin1');
}

/** Serialises the writes of one bucket attribute within this process. */
export function withBucketAttrLock<T>(bucket: string, attr: string, fn: () => Promise<T>): Promise<T> {
  // Keys cannot contain NUL, so this never meets a key's lock.
  return withKeyLock(bucket, `\0bucket-attr/${attr}`, fn);
}

/** Writes the document's file (temp + rename); returns the marker to set. */
export async function writeOverflow(
  root: string,
  bucket: string,
  attr: string,
  value: Buffer,
): Promise<Buffer> {
  const dir = overflowDir(root, bucket);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${attr}.${process.pid}.${randomBytes(6).toString('hex')}`);
  await writeFile(tmp, value);
  await rename(tmp, join(dir, `${attr}.${sha256(value)}`));
  return markerFor(value);
}

/** The document a marker names; an error when its file is gone or does not match. */
export async function readOverflow(
  root: string,
  bucket: string,
  attr: string,
  hash: string,
): Promise<Buffer> {
  const value = await readFile(join(overflowDir(root, bucket), `${attr}.${hash}`));
  if (sha256(value) !== hash)
    throw new MetadataCorruptError(`bucket ${bucket}: ${attr} overflow file does not match its marker`);
  return value;
}

/** Removes the attribute's overflow files except `keep` (the current marker's hash). */
export async function dropOverflow(root: string, bucket: string, attr: string, keep?: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(overflowDir(root, bucket));
  } catch (err) {
    if (isErrno(err, 'ENOENT', 'ENOTDIR')) return;
    throw err;
  }
  const mine = `${attr}.`;
  for (const n of names) {
    if (!n.startsWith(mine) || n === `${attr}.${keep}`) continue;
    await unlink(join(overflowDir(root, bucket), n)).catch(() => undefined);
  }
}
