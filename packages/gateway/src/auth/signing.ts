// The SigV4 primitives on node:crypto: hashes, the per-day signing key (cached, since deriving it
// costs four HMACs and every request of a day and region reuses it) and a constant-time compare.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const ALGORITHM = 'AWS4-HMAC-SHA256';
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Uint8Array, data: string | Uint8Array): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

export function hmacHex(key: Uint8Array, data: string): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

/** Bounded: a flood of distinct (secret, date, region) tuples only costs re-derivation. */
const KEY_CACHE_LIMIT = 4096;
const keyCache = new Map<string, Buffer>();

export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const cacheKey = `${date}\n${region}\n${service}\n${secret}`;
  const cached = keyCache.get(cacheKey);
  if (cached) return cached;
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
  keyCache.set(cacheKey, key);
  return key;
}

export function credentialScope(date: string, region: string, service: string): string {
  return `${date}/${region}/${service}/aws4_request`;
}

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

/** Compares hex signatures without leaking, through timing, how many leading bytes matched. */
export function signaturesEqual(expectedHex: string, givenHex: string): boolean {
  if (!HEX_SIGNATURE.test(givenHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex, 'hex'));
}
