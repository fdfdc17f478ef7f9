// The condition keys a request offers to policy conditions, lower-cased: the caller's address
// and transport, who signed, the list parameters, request object tags, and every x-amz-*
// header as s3:x-amz-*.
import { header, type RawHeaders } from '../http/headers.js';

interface ConditionInput {
  readonly access: string;
  readonly sourceIp: string | undefined;
  readonly secure: boolean;
  readonly presigned: boolean;
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
    ['s3:signatureversion', ['AWS4-HMAC-SHA256']],
  ]);
  if (input.sourceIp) ctx.set('aws:sourceip', [input.sourceIp]);
  if (input.access !== '') {
    ctx.set('aws:userid', [input.access]);
    ctx.set('aws:username', [input.access]);
    ctx.set('s3:authtype', [input.presigned ? 'REST-QUERY-STRING' : 'REST-HEADER']);
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
  return ctx;
}
