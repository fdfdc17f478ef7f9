// An object's tag set larger than the filesystem keeps beside the object's other attributes
// (ten tags of 128-character keys and 256-character values are about 4 KB of JSON, ext4's whole
// xattr block) is stored as a file in its bucket's temp area, as bucket documents are
// (xattr-overflow.ts), and the object's `user.X-Amz-Tagging` holds the same NUL-led marker
// naming the file by the SHA-256 of its content:
//   <root>/<bucket>/.sgwtmp/object-meta/X-Amz-Tagging.<sha256>
// The file is content-addressed and never rewritten, so objects with the same tag set share it,
// an archived version (a hard link, same xattrs) keeps reading it, and copying the marker is
// copying the tags. Files are not reference-counted: one stays until the bucket is deleted
// (DeleteBucket removes `.sgwtmp`), at most one per distinct oversized tag set (≤ 4 KB each).
// versitygw reading such an object sees the marker, which is not JSON: its tag read fails
// rather than answering no tags.

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TMP_DIR } from '../fs/layout.js';
import { ATTR } from './attr-names.js';
import { MetadataCorruptError } from './metadata-corrupt-error.js';
import { markedHash, markerFor, sha256 } from './xattr-overflow.js';

const OBJECT_OVERFLOW_DIR = 'object-meta';

/** The object attributes that may be kept in an overflow file. */
const SPILLABLE: ReadonlySet<string> = new Set([ATTR.tagging]);

export function isSpillable(attr: string): boolean {
  return SPILLABLE.has(attr);
}

/** The bucket an object, version or upload path (`bucket/...`) belongs to. */
export function bucketOfRel(rel: string): string {
  const slash = rel.indexOf('/');
  return slash < 0 ? rel : rel.slice(0, slash);
}

function dirOf(root: string, bucket: string): string {
  return join(root, bucket, TMP_DIR, OBJECT_OVERFLOW_DIR);
}

/** Writes `value` as the content-addressed file (once) and answers the marker to store. */
export async function writeObjectOverflow(
  root: string,
  bucket: string,
  attr: string,
  value: Buffer,
): Promise<Buffer> {
  const dir = dirOf(root, bucket);
  const path = join(dir, `${attr}.${sha256(value)}`);
  const exists = await stat(path).then(
    (st) => st.size === value.length,
    () => false,
  );
  if (!exists) {
    await mkdir(dir, { recursive: true });
    const tmp = join(dir, `.${attr}.${process.pid}.${randomBytes(6).toString('hex')}`);
    await writeFile(tmp, value);
    await rename(tmp, path);
  }
  return markerFor(value);
}

/** The value an object attribute holds: `raw` itself, or the file its marker names. */
export async function resolveObjectOverflow(
  root: string,
  rel: string,
  attr: string,
  raw: Buffer,
): Promise<Buffer> {
  const hash = isSpillable(attr) ? markedHash(raw) : undefined;
  if (hash === undefined) return raw;
  const value = await readFile(join(dirOf(root, bucketOfRel(rel)), `${attr}.${hash}`));
  if (sha256(value) !== hash)
    throw new MetadataCorruptError(`${rel}: ${attr} overflow file does not match its marker`);
  return value;
}
