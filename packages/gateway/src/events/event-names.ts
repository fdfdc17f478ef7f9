// The S3 event names this gateway emits, and how a configuration's <Event> selects them: an exact
// name (`s3:ObjectCreated:Put`) or a family wildcard (`s3:ObjectCreated:*`). Anything else in a
// configuration is refused when it is put, so delivery never meets an unknown name.

/** Emitted names, without the `s3:` prefix (records carry them that way, as S3's do). */
export const EVENT_NAMES = [
  'ObjectCreated:Put',
  'ObjectCreated:Post',
  'ObjectCreated:Copy',
  'ObjectCreated:CompleteMultipartUpload',
  'ObjectRemoved:Delete',
  'ObjectRemoved:DeleteMarkerCreated',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

const FAMILIES = new Set(EVENT_NAMES.map((n) => n.slice(0, n.indexOf(':'))));

/** Whether `selector` (as written in a configuration, `s3:` included) is one this gateway knows. */
export function isEventSelector(selector: string): boolean {
  if (!selector.startsWith('s3:')) return false;
  const name = selector.slice(3);
  if (name.endsWith(':*')) return FAMILIES.has(name.slice(0, -2));
  return (EVENT_NAMES as readonly string[]).includes(name);
}

/** Whether `selector` selects the emitted `name`. */
export function selects(selector: string, name: EventName): boolean {
  const s = selector.slice(3);
  return s === name || (s.endsWith(':*') && name.startsWith(s.slice(0, -1)));
}
