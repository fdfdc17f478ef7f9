// Property tests of SigV4 (Authorization header) verification: requests signed by the real
// @smithy/signature-v4 are accepted; after any edit to the method, path, query, a signed header
// or the Authorization header, the request is either refused with an S3 4xx of the auth codes,
// or accepted only if the edit changed nothing the gateway acts on (same decoded path and query,
// same canonical header values, same parsed Authorization). Random Authorization headers never
// crash the parser. Runs: FUZZ_RUNS (CI 150, stress 10^6).
import { isS3Error } from '@vgwrdma/backend-contract';
import { fuzzSettings } from '@vgwrdma/fuzz-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.js';
import { staticCredentials } from '../../src/auth/credentials.js';
import { parseAuthorizationHeader } from '../../src/auth/header-auth.js';
import type { AuthInput } from '../../src/auth/types.js';
import {
  SIGNING_DATE,
  signRequest,
  strictEncode,
  TEST_ACCESS,
  TEST_SECRET,
} from '../support/sign-request.js';

const { timeout: TIMEOUT, params: FUZZ } = fuzzSettings(150);
const store = staticCredentials([{ access: TEST_ACCESS, secret: TEST_SECRET }]);
const opts = { region: 'us-east-1' };
const AUTH_CODES = new Set([
  'SignatureDoesNotMatch',
  'AccessDenied',
  'AuthorizationHeaderMalformed',
  'InvalidRequest',
  'InvalidAccessKeyId',
  'RequestTimeTooSkewed',
  'AuthorizationQueryParametersError',
  'InvalidArgument',
]);

const keyArb = fc.string({
  unit: fc.constantFrom(...'abcXYZ019 -_.~+/%é€!*()'),
  minLength: 1,
  maxLength: 24,
});
const requestArb = fc.record({
  method: fc.constantFrom('GET', 'PUT', 'HEAD', 'DELETE', 'POST'),
  key: keyArb.filter((k) => !k.startsWith('/')),
  query: fc.dictionary(
    fc.constantFrom('prefix', 'uploads', 'partNumber', 'versionId', 'x-id', 'a+b'),
    keyArb,
    {
      maxKeys: 3,
    },
  ),
  meta: fc.string({ unit: fc.constantFrom(...'ab 12\t-'), maxLength: 12 }),
  payload: fc.constantFrom(
    'UNSIGNED-PAYLOAD',
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  ),
});
type Req = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

async function sign(r: Req): Promise<AuthInput> {
  const path = `/bucket/${r.key.split('/').map(strictEncode).join('/')}`;
  return signRequest({
    method: r.method,
    path,
    query: r.query,
    headers: { 'x-amz-meta-note': r.meta },
    payloadHash: r.payload,
  });
}

/** Outcome of authenticate(): 'ok', or the code of a 4xx S3 auth error (anything else throws). */
async function verdict(input: AuthInput): Promise<string> {
  try {
    await authenticate(input, store, opts);
    return 'ok';
  } catch (err) {
    if (!isS3Error(err) || !AUTH_CODES.has(err.code) || err.status < 400 || err.status > 499) throw err;
    return err.code;
  }
}

// What the router acts on, to judge whether an accepted edit changed anything.
function decodedPath(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
const decodedQuery = (raw: string) => JSON.stringify([...new URLSearchParams(raw)].sort());
const canonicalValue = (v: string | string[] | undefined) =>
  v === undefined
    ? undefined
    : (Array.isArray(v) ? v : [v]).map((x) => x.trim().replace(/\s+/g, ' ')).join(',');
const parsedAuth = (v: string) => {
  try {
    return JSON.stringify(parseAuthorizationHeader(v));
  } catch {
    return undefined;
  }
};

type Target = 'method' | 'path' | 'query' | 'header' | 'authorization' | 'drop';
type Edit = {
  target: Target;
  at: number;
  ch: string;
  kind: 'replace' | 'insert' | 'delete' | 'unescape';
  pick: number;
};
const editArb: fc.Arbitrary<Edit> = fc.record({
  target: fc.constantFrom('method', 'path', 'query', 'header', 'authorization', 'drop'),
  at: fc.nat(),
  ch: fc.constantFrom(...'aZ0 /%+=&,;:.-\t2Fe'),
  kind: fc.constantFrom('replace', 'insert', 'delete', 'unescape'),
  pick: fc.nat(),
});

function editString(s: string, e: Edit): string {
  if (e.kind === 'unescape') {
    // an escape sent as the character it stands for (what a proxy or an attacker may do)
    const escapes = [...s.matchAll(/%[0-9A-Fa-f]{2}/g)];
    const m = escapes[e.pick % Math.max(escapes.length, 1)];
    if (!m) return s;
    const ch = String.fromCharCode(Number.parseInt(m[0].slice(1), 16));
    return s.slice(0, m.index) + ch + s.slice(m.index + 3);
  }
  const at = e.at % (s.length + 1);
  if (e.kind === 'replace') return s.slice(0, at) + e.ch + s.slice(at + 1);
  if (e.kind === 'insert') return s.slice(0, at) + e.ch + s.slice(at);
  return s.slice(0, at) + s.slice(at + 1);
}

const SIGNED = ['host', 'x-amz-date', 'x-amz-content-sha256', 'x-amz-meta-note'];

function tamper(input: AuthInput, e: Edit): AuthInput {
  const headers = { ...input.headers };
  const out = { ...input, headers };
  const name = SIGNED[e.pick % SIGNED.length] as string;
  if (e.target === 'method')
    out.method = ['GET', 'PUT', 'HEAD', 'DELETE', 'POST', 'get'][e.pick % 6] as string;
  if (e.target === 'path') out.rawPath = editString(input.rawPath, e);
  if (e.target === 'query') out.rawQuery = editString(input.rawQuery, e);
  if (e.target === 'header') headers[name] = editString(String(headers[name] ?? ''), e);
  if (e.target === 'authorization') headers.authorization = editString(String(headers.authorization), e);
  if (e.target === 'drop') delete headers[name];
  return out;
}

/** Whether the edit left everything the gateway acts on as it was. */
function sameMeaning(a: AuthInput, b: AuthInput): boolean {
  return (
    a.method.toUpperCase() === b.method.toUpperCase() &&
    // a path that does not decode is refused by the router (InvalidURI) before anything happens
    (decodedPath(b.rawPath) === undefined || decodedPath(a.rawPath) === decodedPath(b.rawPath)) &&
    decodedQuery(a.rawQuery) === decodedQuery(b.rawQuery) &&
    SIGNED.every((n) => canonicalValue(a.headers[n]) === canonicalValue(b.headers[n])) &&
    parsedAuth(String(a.headers.authorization)) === parsedAuth(String(b.headers.authorization))
  );
}

describe('SigV4 header authentication (property)', () => {
  it('accepts what the AWS signer signs', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        expect(await verdict(await sign(r))).toBe('ok');
      }),
      { ...FUZZ },
    );
  });

  it('an edited request is refused with a 4xx auth error unless its meaning is unchanged', {
    timeout: TIMEOUT,
  }, async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(requestArb, editArb, async (r, e) => {
        const signed = await sign(r);
        const edited = tamper(signed, e);
        const v = await verdict(edited);
        seen.set(v, (seen.get(v) ?? 0) + 1);
        if (v === 'ok' && !sameMeaning(signed, edited)) {
          throw new Error(`tampered request accepted: ${JSON.stringify({ signed, edited })}`);
        }
      }),
      { ...FUZZ, examples: [] },
    );
    expect(seen.get('SignatureDoesNotMatch') ?? 0).toBeGreaterThan(0);
  });

  it('random Authorization headers and dates never crash: a 4xx auth error or nothing', {
    timeout: TIMEOUT,
  }, async () => {
    const authArb = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc
        .tuple(
          fc.constantFrom('AWS4-HMAC-SHA256', 'AWS4-HMAC-SHA256 ', 'AWS ', 'aws4-hmac-sha256 '),
          fc.array(
            fc.constantFrom(
              'Credential=',
              'SignedHeaders=',
              'Signature=',
              ',',
              '/',
              ';',
              'host',
              `${TEST_ACCESS}/20261129/us-east-1/s3/aws4_request`,
              'x',
              '=',
              ' ',
            ),
            { maxLength: 12 },
          ),
        )
        .map(([a, parts]) => a + parts.join('')),
    );
    await fc.assert(
      fc.asyncProperty(authArb, fc.string({ maxLength: 20 }), async (authorization, date) => {
        const input: AuthInput = {
          method: 'GET',
          rawPath: '/bucket/key',
          rawQuery: '',
          headers: {
            host: 'h',
            authorization,
            'x-amz-date': date,
            'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
          },
          now: SIGNING_DATE,
        };
        const v = await verdict(input);
        if (authorization.trim() !== '') expect(v).not.toBe('ok');
      }),
      { ...FUZZ },
    );
  });
});
