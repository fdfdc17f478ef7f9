// The condition keys a request offers to policy conditions, lower-cased: the caller's address
// and transport, who signed and how (what authentication established: the signature version,
// header / query string / POST form, the signature's age for URLs, the payload claim), the list
// parameters, request object tags, and every x-amz-* header as s3:x-amz-*. An anonymous request
// has no signing keys, so IAM's rule for a missing key applies (a negated operator holds).
import type { SigningFacts } from '../auth/index.js';
import { header, type RawHeaders } from '../http/headers.js';

interface ConditionInput {
  readonly access: string;
  readonly sourceIp: string | undefined;
  /** The request came over TLS (aws:SecureTransport). */
  readonly secure: boolean;
  /** How the request was signed; undefined when anonymous. */
  readonly signing: SigningFacts | undefined;
  readonly headers: RawHeaders;
  readonly query: URLSearchParams;
  readonly now?: Date;
  /** Keys computed elsewhere (s3:ExistingObjectTag/<key>, read from the backend). */
  readonly extra?: ReadonlyMap<string, string[]>;
}

const QUERY_KEYS: Readonly<Record<string, string>> = {
  prefix: 's3:prefix',
  delimiter: 's3:delimiter',
  'max-keys': 's3:max-keys',
  versionId: 's3:versionid',
};

export function conditionContext(input: ConditionInput): Map<string, string[]> {
  const now = input.now ?? new Date();
  const ctx = new Map<string, string[]>([
    ['aws:securetransport', [String(input.secure)]],
    ['aws:currenttime', [now.toISOString()]],
    ['aws:epochtime', [String(Math.floor(now.getTime() / 1000))]],
  ]);
  if (input.sourceIp) ctx.set('aws:sourceip', [input.sourceIp]);
  if (input.access !== '') {
    ctx.set('aws:userid', [input.access]);
    ctx.set('aws:username', [input.access]);
  }
  for (const name of ['referer', 'user-agent']) {
    const v = header(input.headers, name);
    if (v !== undefined) ctx.set(name === 'referer' ? 'aws:referer' : 'aws:useragent', [v]);
  }
  for (const [param, key] of Object.entries(QUERY_KEYS)) {
    const v = input.query.get(param);
    if (v !== null) ctx.set(key, [v]);
  }
  // x-amz-tagging (PutObject, CreateMultipartUpload) as s3:RequestObjectTag/<key> and ...TagKeys.
  const tagging = header(input.headers, 'x-amz-tagging');
  if (tagging !== undefined) {
    const tags = [...new URLSearchParams(tagging)];
    for (const [k, v] of tags) ctx.set(`s3:requestobjecttag/${k.toLowerCase()}`, [v]);
    ctx.set(
      's3:requestobjecttagkeys',
      tags.map(([k]) => k),
    );
  }
  for (const [k, v] of input.extra ?? []) ctx.set(k, v);
  for (const name of Object.keys(input.headers)) {
    if (!name.startsWith('x-amz-')) continue;
    const v = header(input.headers, name);
    if (v !== undefined) ctx.set(`s3:${name}`, [v]);
  }
  if (input.signing) for (const [k, v] of signingKeys(input.signing, now)) ctx.set(k, [v]);
  return ctx;
}

/**
 * s3:signatureversion, s3:authtype, s3:x-amz-content-sha256 (the claim the signature covers, not
 * merely a header: a URL's body is UNSIGNED-PAYLOAD) and, for URLs only as in S3,
 * s3:signatureage: milliseconds since X-Amz-Date, 0 under SigV2 (which signs no time).
 */
function signingKeys(signing: SigningFacts, now: Date): [string, string][] {
  const keys: [string, string][] = [
    ['s3:signatureversion', signing.version],
    ['s3:authtype', signing.authType],
  ];
  if (signing.contentSha256 !== undefined) keys.push(['s3:x-amz-content-sha256', signing.contentSha256]);
  if (signing.authType === 'REST-QUERY-STRING') {
    const age = signing.signedAt === undefined ? 0 : Math.max(0, now.getTime() - signing.signedAt.getTime());
    keys.push(['s3:signatureage', String(age)]);
  }
  return keys;
}
