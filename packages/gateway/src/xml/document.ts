// Building blocks for response templates: a document with the S3 namespace, and elements whose
// text is escaped once here. An element with an undefined value is left out, which is how the
// templates express S3's optional fields.
import { escapeXml } from '@vgwrdma/backend-contract';

const S3_NS = 'http://s3.amazonaws.com/doc/2006-03-01/';
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

type XmlValue = string | number | boolean | Date | undefined;

/** ISO-8601 with milliseconds, as S3 writes dates in XML bodies. */
function isoDate(d: Date): string {
  return d.toISOString();
}

function text(v: Exclude<XmlValue, undefined>): string {
  if (typeof v === 'string') return escapeXml(v);
  if (v instanceof Date) return isoDate(v);
  return String(v); // numbers and booleans need no escaping
}

/** `<name>value</name>`, or '' when value is undefined. */
export function el(name: string, value: XmlValue): string {
  return value === undefined ? '' : `<${name}>${text(value)}</${name}>`;
}

/** `<name>children</name>` where children are already-built XML. */
export function group(name: string, children: string): string {
  return `<${name}>${children}</${name}>`;
}

/** One element per item. */
export function each<T>(items: readonly T[] | undefined, render: (item: T) => string): string {
  return items ? items.map(render).join('') : '';
}

/** A complete response document rooted at `root`, in the S3 namespace. */
export function xmlDocument(root: string, children: string): string {
  return `${XML_DECLARATION}<${root} xmlns="${S3_NS}">${children}</${root}>`;
}
