// Test helpers: a PosixBackend on a fresh temp directory, a request context, bodies from bytes.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { BucketAcl, RequestContext } from '@vgwrdma/backend-contract';
import { afterEach, beforeEach } from 'vitest';
import { PosixBackend, type PosixBackendOptions } from '../src/index.js';

export const OWNER = 'AKIATESTOWNER';

export function ctx(signal: AbortSignal = new AbortController().signal): RequestContext {
  return { account: { access: OWNER, role: 'admin' }, requestId: 'req-test', signal };
}

export function acl(owner = OWNER): BucketAcl {
  return { Owner: owner, Grantees: [{ Permission: 'FULL_CONTROL', Access: owner, Type: 'CanonicalUser' }] };
}

export interface Fixture {
  dir: string;
  root: string;
  backend: PosixBackend;
  cleanup(): Promise<void>;
}

export async function fixture(
  opts: Omit<PosixBackendOptions, 'root'> & { sidecarName?: string; versioningName?: string } = {},
): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'posix-backend-'));
  const root = join(dir, 'root');
  const { sidecarName, versioningName, ...rest } = opts;
  const backend = await PosixBackend.open({
    root,
    ...rest,
    ...(sidecarName ? { sidecar: join(dir, sidecarName) } : {}),
    ...(versioningName ? { versioningDir: join(dir, versioningName) } : {}),
  });
  return { dir, root, backend, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function withBucket(f: Fixture, bucket = 'bucket'): Promise<string> {
  await f.backend.createBucket(ctx(), { bucket, owner: OWNER, acl: acl() });
  return bucket;
}

/**
 * A fresh backend with a bucket for every test of the file (or of the describe block it is called
 * in): `set` receives them before the test; the backend's folder is removed after it.
 */
export function bucketEach(set: (f: Fixture, bucket: string) => void): void {
  let current: Fixture | undefined;
  beforeEach(async () => {
    current = await fixture();
    set(current, await withBucket(current));
  });
  afterEach(() => current?.cleanup());
}

/** What is left in the bucket's .sgwtmp (the multipart folder aside). */
export async function tmpEntries(f: Fixture, bucket: string): Promise<string[]> {
  const names = await readdir(join(f.root, bucket, '.sgwtmp')).catch(() => [] as string[]);
  return names.filter((n) => n !== 'multipart');
}

export function body(data: string | Buffer): Readable {
  return Readable.from([typeof data === 'string' ? Buffer.from(data) : data]);
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function put(
  f: Fixture,
  bucket: string,
  key: string,
  data: string | Buffer = key,
): Promise<string> {
  const r = await f.backend.putObject(ctx(), { bucket, key, body: body(data) });
  return r.etag;
}

/** Rejects with an S3Error of `code` (checked by the caller's expect). */
export async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

/** The pid of a process that has exited (and been reaped): an owner that is certainly dead. */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  if (r.pid === undefined) throw new Error('could not start a process');
  return r.pid;
}
