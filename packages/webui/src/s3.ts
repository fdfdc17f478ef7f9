// One signed request to the gateway's S3 or admin API with fetch, and the XML helpers the pages
// read answers with. Failing answers become S3ApiError (code and message from the body); no answer
// at all becomes NetworkError. Bodies up to a few MB (configurations, admin XML) are hashed and
// signed; object bodies go unsigned (UNSIGNED-PAYLOAD) through upload.ts.
import { baseUrl, config } from './config.js';
import { errorFromBody, NetworkError } from './errors.js';
import { encodeKey, queryString, sha256Hex, signedHeaders, UNSIGNED_PAYLOAD } from './sign.js';

export interface S3Call {
  readonly method: string;
  readonly bucket?: string;
  readonly key?: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The admin listener instead of the S3 one. */
  readonly admin?: boolean;
  /** A path of its own (the admin API's /<operation>). */
  readonly path?: string;
}

export function s3Base(): string {
  return baseUrl(config().s3);
}

export function pathOf(bucket: string | undefined, key: string | undefined): string {
  if (bucket === undefined) return '/';
  return key === undefined
    ? `/${encodeURIComponent(bucket)}`
    : `/${encodeURIComponent(bucket)}/${encodeKey(key)}`;
}

/** Sends the call; resolves with the response when it is 2xx, else throws S3ApiError. */
export async function call(c: S3Call): Promise<Response> {
  const base = baseUrl(c.admin ? config().admin : config().s3);
  const path = c.path ?? pathOf(c.bucket, c.key);
  const body = c.body;
  const payloadHash = body === undefined ? await sha256Hex('') : await sha256Hex(body);
  const headers = await signedHeaders({
    method: c.method,
    base,
    path,
    ...(c.query ? { query: c.query } : {}),
    ...(c.headers ? { headers: c.headers } : {}),
    payloadHash,
  });
  let res: Response;
  try {
    res = await fetch(`${base}${path}${queryString(c.query)}`, {
      method: c.method,
      headers,
      ...(body === undefined ? {} : { body }),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : String(error));
  }
  if (!res.ok) throw errorFromBody(res.status, await res.text().catch(() => ''), res.statusText);
  return res;
}

/** The call's answer parsed as XML. */
export async function callXml(c: S3Call): Promise<Document> {
  const res = await call(c);
  return parseXml(await res.text());
}

export function parseXml(text: string): Document {
  return new DOMParser().parseFromString(text.trim() === '' ? '<Empty/>' : text, 'application/xml');
}

/** Text of the first descendant named `name` (namespace-blind). */
export function textOf(node: Element | Document, name: string): string | undefined {
  return childrenNamed(node, name, true)[0]?.textContent ?? undefined;
}

/** Elements named `name`: direct children, or any descendants with `deep`. */
export function childrenNamed(node: Element | Document, name: string, deep = false): Element[] {
  const all = deep
    ? Array.from(node.getElementsByTagName('*'))
    : Array.from((node as Element).children ?? []);
  return all.filter((e) => e.localName === name);
}

export { UNSIGNED_PAYLOAD };
