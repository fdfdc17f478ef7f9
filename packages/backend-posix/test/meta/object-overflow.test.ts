// Object tag sets larger than a file's xattrs: XattrStore keeps them in a content-addressed
// overflow file under the bucket's .sgwtmp and a marker in the xattr (docs/posix-layout.md),
// reads them back through the marker, also from the versioning directory's store, and still
// refuses other attributes that do not fit with MetadataTooLarge.
import { link, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { XattrStore } from '../../src/index.js';
import { xattrGet } from '../../src/meta/libc-xattr.js';

// Past 64 KiB no filesystem keeps an xattr (E2BIG), so the spill happens whatever /tmp is.
const HUGE = Buffer.from(JSON.stringify({ k: 'v'.repeat(70_000) }));

describe('object attribute overflow', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'object-overflow-'));
    await mkdir(join(root, 'b'));
    await writeFile(join(root, 'b', 'k'), 'x');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('keeps a tag set that does not fit in a file named by its SHA-256, the xattr a marker', async () => {
    const s = new XattrStore(root);
    await s.set('b/k', 'X-Amz-Tagging', HUGE);
    expect(await s.get('b/k', 'X-Amz-Tagging')).toEqual(HUGE);
    const raw = xattrGet(join(root, 'b', 'k'), 'user.X-Amz-Tagging');
    expect(raw?.subarray(0, 25).toString('latin1')).toBe('\0vgwrdma-overflow sha256=');
    const files = await readdir(join(root, 'b', '.sgwtmp', 'object-meta'));
    expect(files).toEqual([`X-Amz-Tagging.${raw?.subarray(25).toString('latin1')}`]);
    // A second object with the same tags shares the file.
    await writeFile(join(root, 'b', 'k2'), 'y');
    await s.set('b/k2', 'X-Amz-Tagging', HUGE);
    expect(await readdir(join(root, 'b', '.sgwtmp', 'object-meta'))).toHaveLength(1);
  });

  it('refuses an overflow file changed outside the gateway with VGW_ERR_POSIX_METADATA_CORRUPT', async () => {
    const s = new XattrStore(root);
    await s.set('b/k', 'X-Amz-Tagging', HUGE);
    const dir = join(root, 'b', '.sgwtmp', 'object-meta');
    const [file] = await readdir(dir);
    await writeFile(join(dir, file as string), '{"k":"changed"}');
    await expect(s.get('b/k', 'X-Amz-Tagging')).rejects.toMatchObject({
      name: 'MetadataCorruptError',
      code: 'VGW_ERR_POSIX_METADATA_CORRUPT',
    });
  });

  it('keeps a tag set that fits in the xattr itself, readable by versitygw', async () => {
    const s = new XattrStore(root);
    await s.set('b/k', 'X-Amz-Tagging', '{"a":"b"}');
    expect(xattrGet(join(root, 'b', 'k'), 'user.X-Amz-Tagging')?.toString()).toBe('{"a":"b"}');
  });

  it('reads an archived version’s tags from the gateway root (versioning directory store)', async () => {
    const versions = await mkdtemp(join(tmpdir(), 'object-overflow-versions-'));
    try {
      await new XattrStore(root).set('b/k', 'X-Amz-Tagging', HUGE);
      await mkdir(join(versions, 'b', 'aa'), { recursive: true });
      await link(join(root, 'b', 'k'), join(versions, 'b', 'aa', 'v1'));
      expect(await new XattrStore(versions, root).get('b/aa/v1', 'X-Amz-Tagging')).toEqual(HUGE);
    } finally {
      await rm(versions, { recursive: true, force: true });
    }
  });

  it('still answers MetadataTooLarge for another attribute that cannot fit', async () => {
    const s = new XattrStore(root);
    await expect(s.set('b/k', 'metadata', HUGE)).rejects.toMatchObject({ code: 'MetadataTooLarge' });
  });
});
