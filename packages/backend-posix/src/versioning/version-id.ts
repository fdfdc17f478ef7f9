// Version ids: ULIDs (26 Crockford base32 characters, 48-bit millisecond time then 80 random
// bits), as versitygw writes into the `version-id` attribute. Ids made by one process are
// strictly increasing, so lexical order is creation order even within one millisecond.
import { randomBytes } from 'node:crypto';
import { S3Error } from '@vgwrdma/backend-contract';

export const NULL_VERSION = 'null';
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

let lastTime = -1;
let lastRandom = 0n;

function encode(value: bigint, chars: number): string {
  let out = '';
  for (let i = 0; i < chars; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

/** A new ULID, greater than every id this process made before. */
export function newVersionId(now = Date.now()): string {
  if (now <= lastTime) {
    lastRandom = (lastRandom + 1n) & ((1n << 80n) - 1n);
    now = lastTime;
  } else {
    lastTime = now;
    lastRandom = BigInt(`0x${randomBytes(10).toString('hex')}`) >> 1n; // room to increment
  }
  return encode(BigInt(now), 10) + encode(lastRandom, 16);
}

/**
 * A version id names a file in the versioning directory: anything that could escape it, or that
 * no gateway would have made, is refused before it reaches a path.
 */
export function assertVersionId(versionId: string): void {
  const bad =
    versionId === '' ||
    versionId.length > 128 ||
    versionId === '.' ||
    versionId === '..' ||
    /[/\0]/.test(versionId) ||
    versionId.startsWith('.');
  if (bad) throw S3Error.custom('InvalidArgument', 'Invalid version id specified');
}

export function noSuchVersion(key: string, versionId: string): S3Error {
  return new S3Error('NoSuchVersion', undefined, { detail: { Key: key, VersionId: versionId } });
}
