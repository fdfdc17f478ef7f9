// CompleteMultipartUpload's shortcut for parts written in place (in-place.ts): finding a named
// part among the finished slots, deciding whether the upload's assembly file can be the object
// (and which parts must be copied into it first), and taking that file as the object's temp file.
// complete.ts does the rest (checks, attributes, publish) exactly as for an assembled file.
import { normalizeETag, type RequestContext, s3ErrorFromErrno } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import type { FileOwner } from '../fs/file-owner.js';
import type { TempFile } from '../fs/temp-file.js';
import { ATTR } from '../meta/attr-names.js';
import { getText } from '../meta/store.js';
import { copyParts, type PartCopy } from './assemble.js';
import { ASSEMBLY, adoptAssembly, placedPart, slotNumbers, slotRel, uploadStride } from './in-place.js';

export interface CheckedPart {
  number: number;
  /** The part's record: its part file, or its in-place slot. */
  rel: string;
  size: number;
  /** Where its bytes are: `size` at `at` in the file `data`. */
  data: string;
  at: number;
  /** Written in place (rel is its slot). */
  placed: boolean;
}

/** Part (number, etag) written in place and done, or undefined. */
export async function findPlaced(
  env: PosixEnv,
  claimed: string,
  p: { partNumber: number; etag: string },
): Promise<CheckedPart | undefined> {
  const rel = slotRel(claimed, p.partNumber);
  const placed = await placedPart(env, rel);
  if (!placed) return undefined;
  const etag = await getText(env.meta, rel, ATTR.etag);
  if (etag === undefined || normalizeETag(etag) !== normalizeETag(p.etag)) return undefined;
  const data = `${claimed}/${ASSEMBLY}`;
  return { number: p.partNumber, rel, size: placed.size, data, at: placed.at, placed: true };
}

/**
 * Whether the assembly file can be the object, and what must be copied into it first: the parts
 * are 1..N, all but the last of the upload's stride and the last no larger; those written in
 * place are at (n - 1) × stride; the others (a short last part that arrived before the stride was
 * set, a part uploaded to a part file) are copied to where they belong, which no slot holds. No
 * other slot may exist: none still being written (its bytes could land after the publish) and
 * none of a part not named (cutting the file to size or copying over it must lose no part a later
 * Complete could name). Undefined: the parts are assembled into a new file instead.
 */
export async function inPlacePlan(
  env: PosixEnv,
  claimed: string,
  parts: readonly CheckedPart[],
): Promise<PartCopy[] | undefined> {
  if (!parts.some((p) => p.placed)) return undefined;
  const stride = await uploadStride(env, claimed);
  if (stride === undefined) return undefined;
  const last = parts.length - 1;
  const lined = parts.every(
    (p, i) =>
      p.number === i + 1 &&
      (i === last ? p.size <= stride : p.size === stride) &&
      (!p.placed || p.at === i * stride),
  );
  if (!lined) return undefined;
  const slots = await slotNumbers(env, claimed);
  const placed = parts.filter((p) => p.placed).map((p) => p.number);
  if (slots.length !== placed.length || slots.some((n, i) => n !== placed[i])) return undefined;
  return parts
    .filter((p) => !p.placed)
    .map((p) => ({ rel: p.data, at: p.at, size: p.size, to: (p.number - 1) * stride }));
}

/** The assembly file as the object's temp file, with the parts that were not in place copied in. */
export async function completeInPlace(
  env: PosixEnv,
  ctx: RequestContext,
  claimed: string,
  size: number,
  owner: FileOwner | undefined,
  fill: readonly PartCopy[],
): Promise<TempFile> {
  const tmp = await adoptAssembly(env, claimed, size, owner);
  try {
    if (fill.length > 0) await copyParts(env, ctx, tmp, fill);
  } catch (err) {
    await tmp.discard();
    throw s3ErrorFromErrno(err) ?? err;
  }
  return tmp;
}
