// PutObject and CopyObject: both end in writeObject; they differ in where the bytes and the
// attributes come from (the request, or the source object under the COPY/REPLACE directives).

import { Readable } from 'node:stream';
import {
  type CopyObjectInput,
  type CopyObjectOutput,
  checkConditions,
  checkNotCopyToItself,
  type ObjectAttributesInput,
  type PutObjectInput,
  type PutObjectOutput,
  pickContentHeaders,
  type RequestContext,
} from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { accountOwner } from '../fs/file-owner.js';
import { lockForNewObject } from '../lock/object-lock.js';
import {
  checkContentHeaders,
  checkMetadataSize,
  checkObjectTags,
  creationAttrs,
} from '../meta/object-attrs.js';
import { openObject } from './read-object.js';
import { DEFAULT_ALGORITHM, writeObject } from './write-object.js';

export async function putObject(
  env: PosixEnv,
  ctx: RequestContext,
  input: PutObjectInput,
): Promise<PutObjectOutput> {
  checkMetadataSize(input.metadata);
  checkContentHeaders(input);
  checkObjectTags(input.tagging);
  const lock = await lockForNewObject(env, input.bucket, input);
  const r = await writeObject(env, {
    bucket: input.bucket,
    key: input.key,
    body: input.body,
    signal: ctx.signal,
    owner: accountOwner(env.chown, ctx.account),
    contentLength: input.contentLength,
    contentMD5: input.contentMD5,
    checksum: input.checksum,
    attrs: creationAttrs({ ...input, ...lock }),
    ifMatch: input.ifMatch,
    ifNoneMatch: input.ifNoneMatch,
  });
  return {
    etag: r.etag,
    size: r.size,
    checksums: r.checksums,
    checksumType: r.checksumType,
    ...(r.versionId === undefined ? {} : { versionId: r.versionId }),
  };
}

export async function copyObject(
  env: PosixEnv,
  ctx: RequestContext,
  input: CopyObjectInput,
): Promise<CopyObjectOutput> {
  const { source } = input;
  const replaceMeta = input.metadataDirective === 'REPLACE';
  const replaceTags = input.taggingDirective === 'REPLACE';
  const src = await openObject(env, source.bucket, source.key, source.versionId);
  try {
    checkConditions(source.conditions, { etag: src.attrs.etag ?? '', lastModified: src.mtime }, false);
    checkNotCopyToItself(input, source.versionId === undefined || source.versionId === src.versionId);
    const a = src.attrs;
    const attrs: ObjectAttributesInput = replaceMeta
      ? { ...pickContentHeaders(input), metadata: input.metadata ?? {} }
      : { ...pickContentHeaders(a), metadata: a.metadata };
    const tagging = replaceTags ? input.tagging : a.tagging;
    if (tagging) attrs.tagging = tagging;
    // The copy gets the request's ACL (private when it names none), never the source's.
    if (input.acl) attrs.acl = input.acl;
    Object.assign(attrs, await lockForNewObject(env, input.bucket, input));
    checkMetadataSize(attrs.metadata);
    checkContentHeaders(attrs);
    checkObjectTags(attrs.tagging);
    const srcAlg = a.checksums?.Algorithm;
    const algorithm =
      input.checksumAlgorithm ?? (srcAlg && srcAlg !== DEFAULT_ALGORITHM ? srcAlg : undefined);
    // The stream owns the source handle; reading it while the target is renamed over the same
    // key (a self-copy with REPLACE) is safe: the handle keeps the old inode.
    const body = src.fh ? src.fh.createReadStream() : Readable.from([]);
    const r = await writeObject(env, {
      bucket: input.bucket,
      key: input.key,
      body,
      signal: ctx.signal,
      owner: accountOwner(env.chown, ctx.account),
      contentLength: src.size,
      algorithm,
      attrs: creationAttrs(attrs),
    });
    const out: CopyObjectOutput = { etag: r.etag, lastModified: r.lastModified, checksums: r.checksums };
    if (r.versionId !== undefined) out.versionId = r.versionId;
    if (src.versionId !== undefined) out.copySourceVersionId = src.versionId;
    return out;
  } finally {
    await src.fh?.close().catch(() => undefined);
  }
}
