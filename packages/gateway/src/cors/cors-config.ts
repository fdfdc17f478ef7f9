// A bucket's CORS configuration (stored as the XML the client sent) parsed into typed rules.
import { children, childText, parseXmlRoot, type XmlNode } from '../xml/parse.js';

export interface CorsRule {
  readonly id?: string;
  readonly allowedOrigins: readonly string[];
  /** Upper-case HTTP methods. */
  readonly allowedMethods: readonly string[];
  /** Lower-case header patterns. */
  readonly allowedHeaders: readonly string[];
  readonly exposeHeaders: readonly string[];
  readonly maxAgeSeconds?: number;
}

function texts(rule: XmlNode, name: string): string[] {
  return children(rule, name)
    .map((n) => (typeof n === 'string' ? n : ''))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Parses stored CORS XML; MalformedXML when it is not a CORSConfiguration. */
export function parseCorsRules(xml: string): CorsRule[] {
  const root = parseXmlRoot(xml, 'CORSConfiguration');
  return children(root, 'CORSRule').map((rule) => {
    const id = childText(rule, 'ID');
    const maxAge = childText(rule, 'MaxAgeSeconds');
    const age = maxAge === undefined ? undefined : Number.parseInt(maxAge, 10);
    return {
      ...(id === undefined ? {} : { id }),
      allowedOrigins: texts(rule, 'AllowedOrigin'),
      allowedMethods: texts(rule, 'AllowedMethod').map((m) => m.toUpperCase()),
      allowedHeaders: texts(rule, 'AllowedHeader').map((h) => h.toLowerCase()),
      exposeHeaders: texts(rule, 'ExposeHeader'),
      ...(age === undefined || Number.isNaN(age) ? {} : { maxAgeSeconds: age }),
    };
  });
}
