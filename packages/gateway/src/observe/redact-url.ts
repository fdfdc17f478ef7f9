// What a log may keep of a request target (or a Referer): everything but the values of the query
// parameters that let a reader replay the request. A presigned URL's X-Amz-Signature, SigV2
// query auth's Signature and a session's X-Amz-Security-Token become REDACTED; the names stay,
// and so does X-Amz-Credential (its access key id is no secret, and says who signed). Names are
// compared decoded and case-insensitively, so `X-Amz-%53ignature` or `signature` is caught too.

export const REDACTED = 'REDACTED';

const SECRET_PARAMS: ReadonlySet<string> = new Set(['x-amz-signature', 'signature', 'x-amz-security-token']);

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** `target` with the values of secret query parameters replaced by REDACTED. */
export function redactUrl(target: string): string {
  const q = target.indexOf('?');
  if (q === -1) return target;
  const pieces = target.slice(q + 1).split('&');
  let changed = false;
  const kept = pieces.map((piece) => {
    const eq = piece.indexOf('=');
    const name = eq === -1 ? piece : piece.slice(0, eq);
    if (!SECRET_PARAMS.has(decodedName(name))) return piece;
    changed = true;
    return `${name}=${REDACTED}`;
  });
  return changed ? `${target.slice(0, q + 1)}${kept.join('&')}` : target;
}
