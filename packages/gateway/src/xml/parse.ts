// Request-body XML parsing with fast-xml-parser: one configured parser, and small typed readers
// over its output. Anything that is not well-formed, or lacks the expected root, is MalformedXML.
import { S3Error } from '@vgwrdma/backend-contract';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** A parsed element: text, or children by name (repeated names listed in ARRAY_ELEMENTS are arrays). */
export type XmlNode = string | { [name: string]: XmlNode | XmlNode[] };

// Elements that may repeat; making them always arrays spares every reader a one-or-many check.
const ARRAY_ELEMENTS = new Set(['Object', 'Part', 'Tag', 'Grant', 'CORSRule', 'Rule', 'RoutingRule']);

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  // Keys may start or end with spaces: keep text exactly as sent.
  trimValues: false,
  processEntities: true,
  // Numeric character references (`&#x0A;`, `&#13;`): the JS SDK writes keys' control
  // characters that way; without this a DeleteObjects key "a\nb" arrived as "a&#x0A;b".
  htmlEntities: true,
  ignoreDeclaration: true,
  isArray: (name) => ARRAY_ELEMENTS.has(name),
});

export function malformedXml(): S3Error {
  return new S3Error('MalformedXML');
}

/** Parses `xml` and answers the children of its root element, which must be named `root`. */
export function parseXmlRoot(xml: string, root: string): Record<string, XmlNode | XmlNode[]> {
  if (xml.trim() === '' || XMLValidator.validate(xml) !== true) throw malformedXml();
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch {
    throw malformedXml();
  }
  const top = doc[root];
  if (top === undefined) throw malformedXml();
  if (typeof top === 'string') return {};
  if (typeof top !== 'object' || top === null || Array.isArray(top)) throw malformedXml();
  return top as Record<string, XmlNode | XmlNode[]>;
}

/** The text of child `name`, or undefined when absent. Nested elements are MalformedXML. */
export function childText(node: XmlNode | XmlNode[] | undefined, name: string): string | undefined {
  if (node === undefined || typeof node === 'string' || Array.isArray(node)) return undefined;
  const v = node[name];
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) throw malformedXml();
  // An element with only whitespace text around comments parses as an object with '#text'.
  const t = v['#text'];
  if (typeof t === 'string' && Object.keys(v).length === 1) return t;
  throw malformedXml();
}

/** The children named `name` as a list (empty when absent). */
export function children(node: XmlNode | XmlNode[] | undefined, name: string): XmlNode[] {
  if (node === undefined || typeof node === 'string' || Array.isArray(node)) return [];
  const v = node[name];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The single child element `name` (undefined when absent). */
export function child(node: XmlNode | XmlNode[] | undefined, name: string): XmlNode | undefined {
  return children(node, name)[0];
}

export function parseBoolean(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  const t = text.trim().toLowerCase();
  if (t === 'true') return true;
  if (t === 'false') return false;
  throw malformedXml();
}
