// CompleteMultipartUpload. The upload is claimed by renaming its directory to
// `<uploadId>.<etag>.inprogress`: exactly one request wins the rename; a concurrent or repeated
// complete with the same parts (same etag) waits for the claim to end and answers the object the
// winner published (recognised by `mp-metadata`'s uploadId). The parts are checked, assembled
// into a temp file, given the upload's attributes, and published; then the claim is removed.
// When the parts are exactly the ones written in place, 1..N (in-place.ts), the upload's
// assembly file already holds the object: it is cut to size and published itself, no byte copied.
// If checking or assembling fails, the claim is released so the client can retry.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, rename, rm, stat } from 'node:fs/promises';
import {
  type ChecksumAlgorithm,
  type Checksums,
  type ChecksumType,
  type CompleteMultipartUploadInput,
  type CompleteMultipartUploadOutput,
  checkCompleteChecksum,
  checkCompleteChecksumType,
  getChecksum,
  multipartETag,
  normalizeETag,
  type RequestContext,
  S3Error,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { isErrno, requireBucket } from '../fs/errors.js';
import { accountOwner } from '../fs/file-owner.js';
import { abs, assertBucketName, assertKey, objectRel, uploadRel, uploadsRel } from '../fs/layout.js';
import { ownerId } from '../fs/owner.js';
import { ATTR } from '../meta/attr-names.js';
import { encodeMpMetadata } from '../meta/object-attrs.js';
import { getText } from '../meta/store.js';
import { isAttrsTooLarge } from '../meta/xattr-fit.js';
import { openObject, readExisting } from '../ops/read-object.js';
import { planWrite, publishVersion } from '../versioning/write-hook.js';
import { assemble } from './assemble.js';
import { type CheckedPart, completeInPlace, findPlaced, inPlacePlan } from './complete-in-place.js';
import { combinePartCrcs, type PartCrc } from './full-object-crc.js';
import { partChecksums } from './parts.js';
import { findPart } from './replaced-parts.js';
import {
  isValidUploadId,
  MAX_PART_NUMBER,
  MIN_PART_SIZE,
  noSuchUpload,
  pruneUploadsDir,
  readUploadChecksum,
} from './uploads.js';

const CLAIM_POLL_MS = 20;

/**
 * A part number listed more than once in a row (two uploads of one part raced and the client
 * kept both ETags) counts once, with its last entry, as S3 does.
 */
function distinctParts(parts: CompleteMultipartUploadInput['parts']): CompleteMultipartUploadInput['parts'] {
  return parts.filter((p, i) => parts[i + 1]?.partNumber !== p.partNumber);
}

/** Checked once the upload is known to exist: a gone upload answers NoSuchUpload first. */
function validatePartList(input: CompleteMultipartUploadInput): void {
  let prev = 0;
  for (const p of input.parts) {
    if (!Number.isInteger(p.partNumber) || p.partNumber < 1 || p.partNumber > MAX_PART_NUMBER) {
      throw new S3Error('InvalidPart');
    }
    if (p.partNumber <= prev) throw new S3Error('InvalidPartOrder');
    prev = p.partNumber;
    if (!/^[0-9a-f]{32}$/i.test(normalizeETag(p.etag))) throw new S3Error('InvalidPart');
  }
}

export async function completeMultipartUpload(
  env: PosixEnv,
  ctx: RequestContext,
  request: CompleteMultipartUploadInput,
): Promise<CompleteMultipartUploadOutput> {
  const input = { ...request, parts: distinctParts(request.parts) };
  assertBucketName(input.bucket);
  assertKey(input.key);
  await requireBucket(env, input.bucket);
  if (!isValidUploadId(input.uploadId)) throw noSuchUpload(input.uploadId);
  if (input.parts.length === 0) throw new S3Error('MalformedXML');
  const etag = multipartETag(input.parts.map((p) => p.etag));
  const rel = uploadRel(input.bucket, input.key, input.uploadId);
  const claimed = `${uploadsRel(input.bucket, input.key)}/${input.uploadId}.${normalizeETag(etag)}.inprogress`;
  for (;;) {
    try {
      // With xattrs (they travel with the rename) the owner mark goes on before the rename too,
      // so a kill between the two cannot leave an unmarked claim that a restart would keep for
      // the whole age limit. (A sidecar store would leave an orphan value for a gone upload.)
      if (env.meta.kind === 'xattr')
        await env.meta.set(rel, ATTR.claimOwner, ownerId()).catch(() => undefined);
      await rename(abs(env, rel), abs(env, claimed));
      break;
    } catch (err) {
      if (!isErrno(err, 'ENOENT', 'ENOTEMPTY', 'EEXIST')) throw err;
    }
    // Someone else holds (or held) the claim: wait for it to end, then see what it left.
    while (await exists(env, claimed)) {
      if (ctx.signal.aborted) throw new S3Error('InternalError');
      await new Promise((r) => setTimeout(r, CLAIM_POLL_MS));
    }
    if (await exists(env, rel)) continue; // the other complete failed and released the claim
    const done = await completedBefore(env, input, etag);
    if (done) return done;
    throw noSuchUpload(input.uploadId);
  }
  await env.meta.movedTree(rel, claimed);
  // Marks the claim as this process's (again: a concurrent complete may have marked `rel` last),
  // so a restart releases it only once this process is gone.
  await env.meta.set(claimed, ATTR.claimOwner, ownerId()).catch(() => undefined);
  // A complete killed after it published the object, while it was removing the claim's parts,
  // leaves a claim with some parts gone; a restart gives it back. The object it published is the
  // answer: retrying must not turn into InvalidPart.
  const published = await completedBefore(env, input, etag);
  if (published) {
    await dropClaim(env, input, claimed);
    return published;
  }
  let out: CompleteMultipartUploadOutput;
  try {
    out = await finish(env, ctx, input, claimed, etag);
  } catch (err) {
    await rename(abs(env, claimed), abs(env, rel)).catch(() => undefined);
    await env.meta.movedTree(claimed, rel).catch(() => undefined);
    await env.meta.remove(rel, ATTR.claimOwner).catch(() => undefined);
    throw err;
  }
  await dropClaim(env, input, claimed);
  return out;
}

/** Removes a claim whose object is published: its parts, their attributes, an empty uploads dir. */
async function dropClaim(env: PosixEnv, input: CompleteMultipartUploadInput, claimed: string): Promise<void> {
  await rm(abs(env, claimed), { recursive: true, force: true });
  await env.meta.droppedTree(claimed);
  await pruneUploadsDir(env, input.bucket, input.key);
}

async function exists(env: PosixEnv, rel: string): Promise<boolean> {
  try {
    await lstat(abs(env, rel));
    return true;
  } catch {
    return false;
  }
}

/** A complete that already happened with these parts: answer what it answered. */
async function completedBefore(
  env: PosixEnv,
  input: CompleteMultipartUploadInput,
  etag: string,
): Promise<CompleteMultipartUploadOutput | undefined> {
  try {
    const o = await openObject(env, input.bucket, input.key);
    await o.fh?.close();
    if (o.attrs.mp?.uploadId !== input.uploadId || o.attrs.etag !== etag) return undefined;
    const { checksums, type } = summary(o.attrs.checksums);
    return {
      bucket: input.bucket,
      key: input.key,
      etag,
      checksums,
      ...(type ? { checksumType: type } : {}),
      ...(o.versionId === undefined ? {} : { versionId: o.versionId }),
    };
  } catch {
    return undefined;
  }
}

function summary(stored: ({ Algorithm?: ChecksumAlgorithm; Type?: ChecksumType } & Checksums) | undefined): {
  checksums: Checksums;
  type?: ChecksumType;
} {
  const alg = stored?.Algorithm;
  const value = alg ? stored?.[alg] : undefined;
  return { checksums: alg && value ? { [alg]: value } : {}, ...(stored?.Type ? { type: stored.Type } : {}) };
}

/** The ETag a part file carries; recomputed from the data when attributes are off (--nometa). */
async function partETag(env: PosixEnv, rel: string): Promise<string> {
  const stored = await getText(env.meta, rel, ATTR.etag);
  if (stored !== undefined) return stored;
  const h = createHash('md5');
  for await (const chunk of createReadStream(abs(env, rel))) h.update(chunk as Buffer);
  return `"${h.digest('hex')}"`;
}

async function finish(
  env: PosixEnv,
  ctx: RequestContext,
  input: CompleteMultipartUploadInput,
  claimed: string,
  etag: string,
): Promise<CompleteMultipartUploadOutput> {
  validatePartList(input);
  const { algorithm, type } = await readUploadChecksum(env, claimed);
  checkCompleteChecksumType({ algorithm, type }, input.checksumType);
  // With a CRC32/CRC32C/SHA checksum on every part, S3 wants the parts numbered 1, 2, 3, ...
  if (algorithm && algorithm !== 'CRC64NVME' && input.parts.some((p, i) => p.partNumber !== i + 1)) {
    throw new S3Error('InvalidPartOrder');
  }
  const parts: CheckedPart[] = [];
  const partSums: string[] = [];
  /** Each part's CRCs by algorithm, for combining into full-object CRCs. */
  const partCrcs: Partial<Record<ChecksumAlgorithm, PartCrc[]>> = {};
  const addCrc = (alg: ChecksumAlgorithm, crc: string | undefined, size: number) => {
    const list = partCrcs[alg] ?? [];
    list.push({ crc, size });
    partCrcs[alg] = list;
  };
  // Every named part must exist with its ETag (InvalidPart) before sizes are judged.
  for (const p of input.parts) {
    const placed = await findPlaced(env, claimed, p);
    if (placed) {
      parts.push(placed);
      continue;
    }
    const rel = await findPart(claimed, p, (r) => partETag(env, r));
    let size: number;
    try {
      size = (await stat(abs(env, rel))).size;
    } catch {
      throw new S3Error('InvalidPart');
    }
    parts.push({ number: p.partNumber, rel, size, data: rel, at: 0, placed: false });
  }
  for (const [i, p] of input.parts.entries()) {
    const { rel, size } = parts[i] as CheckedPart;
    if (size < MIN_PART_SIZE && i < input.parts.length - 1) throw new S3Error('EntityTooSmall');
    const sums = await partChecksums(env, rel);
    addCrc('CRC64NVME', (await getText(env.meta, rel, ATTR.partCrc64)) ?? sums?.CRC64NVME, size);
    if (algorithm) {
      const stored = sums?.[algorithm];
      // CRC64NVME parts are listed once, above: a second entry would combine each part twice.
      if (algorithm !== 'CRC64NVME') addCrc(algorithm, stored, size);
      const given = p.checksums?.[algorithm];
      if (given !== undefined && stored !== undefined && given !== stored) throw new S3Error('InvalidPart');
      if (stored !== undefined) partSums.push(stored);
    }
  }
  const total = parts.reduce((n, p) => n + p.size, 0);
  if (input.objectSize !== undefined && input.objectSize !== total) {
    throw S3Error.custom(
      'InvalidRequest',
      `The provided 'x-amz-mp-object-size' header value ${input.objectSize} does not match what was computed: ${total}`,
    );
  }
  if (input.ifMatch !== undefined || input.ifNoneMatch !== undefined)
    await checkCompleteConditions(env, input);

  const fullObject = algorithm !== undefined && (type ?? 'COMPOSITE') === 'FULL_OBJECT';
  // CRC64NVME always; the upload's own algorithm too when its checksum is full-object. Each is
  // combined from the part CRCs; only those that cannot be are computed over the data.
  const wanted: ChecksumAlgorithm[] =
    fullObject && algorithm !== 'CRC64NVME' ? ['CRC64NVME', algorithm] : ['CRC64NVME'];
  const combined: Record<string, string> = {};
  const reread: ChecksumAlgorithm[] = [];
  for (const alg of wanted) {
    const crc = combinePartCrcs(alg, partCrcs[alg] ?? []);
    if (crc === undefined) reread.push(alg);
    else combined[alg] = crc;
  }
  const plan = await planWrite(env, input.bucket, input.key);
  const owner = accountOwner(env.chown, ctx.account);
  const fill = reread.length === 0 ? await inPlacePlan(env, claimed, parts) : undefined;
  const assembled = fill
    ? { tmp: await completeInPlace(env, ctx, claimed, total, owner, fill), checksums: {} as Checksums }
    : await assemble(env, ctx, {
        bucket: input.bucket,
        parts: parts.map((p) => ({ rel: p.data, at: p.at, size: p.size })),
        algorithms: reread,
      });
  try {
    const stored: Record<string, string> = { ...combined, ...assembled.checksums };
    let answer: Checksums = {};
    let answerType: ChecksumType = 'FULL_OBJECT';
    if (algorithm && !fullObject) {
      // COMPOSITE: the checksum of the concatenated binary part checksums, then -N.
      if (partSums.length === parts.length) {
        const h = getChecksum(algorithm).create();
        for (const s of partSums) h.update(Buffer.from(s, 'base64'));
        stored[algorithm] = `${h.digest()}-${parts.length}`;
      }
      answerType = 'COMPOSITE';
    }
    const primary: ChecksumAlgorithm = algorithm ?? 'CRC64NVME';
    const value = stored[primary];
    if (value !== undefined) answer = { [primary]: value };
    checkCompleteChecksum({ algorithm, type }, input.checksums, value);
    // The upload directory's attributes (content headers, metadata, tags, lock) become the object's.
    for (const attr of await env.meta.list(claimed)) {
      if (attr === ATTR.checksums || attr === ATTR.claimOwner) continue;
      const v = await env.meta.get(claimed, attr);
      if (v !== undefined) await assembled.tmp.setAttr(attr, v);
    }
    await assembled.tmp.setAttr(ATTR.etag, etag);
    await assembled.tmp.setAttr(
      ATTR.checksums,
      JSON.stringify({ Algorithm: primary, Type: answerType, ...stored }),
    );
    let end = 0;
    const ends = parts.map((p) => (end += p.size));
    // mp-metadata grows with the part count (about 45 KB of gzip at 10,000 parts, ext4 keeps 4 KiB
    // of xattrs): where it does not fit, the object goes without it rather than the upload failing
    // (partNumber reads then see one part; a repeated complete answers NoSuchUpload).
    await assembled.tmp
      .setAttr(ATTR.mpMetadata, encodeMpMetadata({ uploadId: input.uploadId, parts: ends }))
      .catch((err: unknown) => {
        if (!isAttrsTooLarge(err)) throw err;
      });
    const versionId = await publishVersion(env, plan, assembled.tmp, () =>
      assembled.tmp.publish(objectRel(input.bucket, input.key), env.dirPerms),
    );
    return {
      bucket: input.bucket,
      key: input.key,
      etag,
      checksums: answer,
      checksumType: answerType,
      ...(versionId === undefined ? {} : { versionId }),
    };
  } catch (err) {
    await assembled.tmp.discard();
    throw err;
  }
}

async function checkCompleteConditions(env: PosixEnv, input: CompleteMultipartUploadInput): Promise<void> {
  const existing = await readExisting(env, input.bucket, input.key);
  if (input.ifNoneMatch !== undefined && existing) throw new S3Error('PreconditionFailed');
  if (input.ifMatch !== undefined) {
    if (!existing) throw new S3Error('NoSuchKey');
    if (input.ifMatch.trim() !== '*' && normalizeETag(input.ifMatch) !== normalizeETag(existing.etag)) {
      throw new S3Error('PreconditionFailed');
    }
  }
}
