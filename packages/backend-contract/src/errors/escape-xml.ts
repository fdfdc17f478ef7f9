// The one XML escape every S3 response body uses: the gateway's templates and cu-middleware's
// error document. Text and attribute values are escaped alike; characters XML 1.0 cannot carry
// at all are replaced by U+FFFD (keys with such characters are what encoding-type=url exists for).

const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const SPECIAL = /[&<>"'\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same set, to test without replacing
const ANY_SPECIAL = /[&<>"'\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** `value` made safe as XML text or an attribute value (most values need nothing: returned as is). */
export function escapeXml(value: string): string {
  return ANY_SPECIAL.test(value) ? value.replace(SPECIAL, (ch) => ENTITY[ch] ?? '\uFFFD') : value;
}
