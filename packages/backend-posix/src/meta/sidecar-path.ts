// Where the sidecar store (--sidecar DIR) keeps the attributes of a path. versitygw's layout is
// `<DIR>/<bucket>/meta/<attr>` for a bucket and `<DIR>/<bucket>/<key>/meta/<attr>` for an object,
// and there a key can reach another path's attributes: `meta/cors` makes a directory where the
// bucket's `cors` file lives, `a/meta/etag` one where object `a` keeps its etag. Here a path
// segment that reads `meta` (or `meta` followed by tildes) gets one more tilde, so no segment of
// a key ever maps to the attribute directory's name and every path's attributes live in a
// directory no other path can reach:
//   enc(s) = s + '~'  when s is `meta`, `meta~`, `meta~~`, ...
//   enc(s) = s        otherwise (the versitygw path, unchanged)
// enc is one-to-one and never yields `meta`. Keys without such a segment keep versitygw's layout.
import { join } from 'node:path';
import { S3Error } from '@vgwrdma/backend-contract';

/** The directory holding one path's attribute files. */
export const META_DIR = 'meta';
/** Longest file name the sidecar filesystem takes (Linux NAME_MAX). */
const NAME_MAX = 255;
const ESCAPED = /^meta~*$/;

/** One path segment as it is named in the sidecar tree. */
export function encodeSegment(segment: string): string {
  return ESCAPED.test(segment) ? `${segment}~` : segment;
}

/** Whether a segment is stored under another name than versitygw's (it needs escaping). */
export function isEscaped(segment: string): boolean {
  return ESCAPED.test(segment);
}

/** Segments of a root-relative path (`bucket/a/b`); a folder object's trailing slash is dropped. */
function segmentsOf(rel: string): string[] {
  return rel.split('/').filter((s) => s !== '');
}

/** `<bucket>/<enc(seg)>/...`: where `rel`'s subtree lives in the sidecar tree, relative to DIR. */
export function sidecarRel(rel: string): string {
  const [bucket = '', ...rest] = segmentsOf(rel);
  return [bucket, ...rest.map(encodeSegment)].join('/');
}

/** The absolute directory of `rel`'s attribute files. */
export function attrDir(sidecar: string, rel: string): string {
  return join(sidecar, sidecarRel(rel), META_DIR);
}

/**
 * KeyTooLongError when a segment of `rel` is too long for the sidecar tree once escaped (a
 * 255-byte `meta~~~...`): such a key could be stored as data but not given attributes.
 */
export function assertSidecarFits(rel: string): void {
  for (const s of segmentsOf(rel)) {
    if (Buffer.byteLength(encodeSegment(s), 'utf8') > NAME_MAX) throw new S3Error('KeyTooLongError');
  }
}
