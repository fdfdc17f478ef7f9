// The conformance harness: owns the backend under test for one describe block, hands each case
// a fresh bucket, and holds the helpers cases share (bodies, reading, error assertions).
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Backend } from '../backend.js';
import { type S3Error, type S3ErrorCode, statusOf } from '../errors/index.js';
import type { Body } from '../types/common.js';
import type { RequestContext } from '../types/context.js';
import type { GetObjectInput, PutObjectInput } from '../types/object.js';

export interface ConformanceSubject {
  backend: Backend;
  cleanup: () => Promise<void>;
  ctx?: RequestContext;
}

export type ConformanceFactory = () => Promise<ConformanceSubject>;

export interface ConformanceOptions {
  /**
   * Case ids (shown in brackets after each case title) or group prefixes (`limits`,
   * `multipart.`) to skip, for behaviours the backend deliberately leaves to another layer.
   */
  skip?: string[];
  /**
   * Case ids expected to fail on this backend, each with the reason (a known divergence being
   * fixed elsewhere): the case runs and must fail; once it passes, the run says so.
   */
  expectFail?: Record<string, string>;
  /** Timeout of the hook that runs the factory (ms; vitest's hookTimeout when absent). */
  setupTimeout?: number;
}

/** The account every case acts as; its access key is the bucket owner. */
const OWNER = 'conformance-owner';

export class Harness {
  private subject: ConformanceSubject | undefined;
  private bucketSeq = 0;
  private readonly runId = Math.random().toString(36).slice(2, 8);

  constructor(
    readonly factory: ConformanceFactory,
    readonly options: ConformanceOptions,
  ) {}

  /** Registers the factory/cleanup hooks; call inside the describe block. */
  install(): void {
    beforeAll(async () => {
      this.subject = await this.factory();
    }, this.options.setupTimeout);
    afterAll(async () => {
      await this.subject?.cleanup();
    });
  }

  get backend(): Backend {
    if (!this.subject) throw new Error('conformance: the backend factory has not run');
    return this.subject.backend;
  }

  get ctx(): RequestContext {
    return (
      this.subject?.ctx ?? {
        account: { access: OWNER, role: 'admin' },
        requestId: 'conformance',
        signal: new AbortController().signal,
      }
    );
  }

  isSkipped(id: string): boolean {
    return (this.options.skip ?? []).some((s) => id === s || id.startsWith(s.endsWith('.') ? s : `${s}.`));
  }

  /** Registers a case. `id` is stable and skippable; `title` says which S3 behaviour it pins. */
  case(id: string, title: string, fn: () => Promise<void>, timeout?: number): void {
    const name = `${title} [${id}]`;
    const failing = this.options.expectFail?.[id];
    if (this.isSkipped(id)) it.skip(name, fn);
    else if (failing !== undefined) it.fails(`${name} (expected to fail: ${failing})`, fn, timeout);
    else it(name, fn, timeout);
  }

  /** A fresh bucket, created for the calling case (lower-case, DNS-safe, unique per run). */
  async bucket(tag: string): Promise<string> {
    this.bucketSeq += 1;
    const name = `conf-${this.runId}-${this.bucketSeq}-${tag}`.slice(0, 63).replace(/-+$/, '');
    await this.backend.createBucket(this.ctx, {
      bucket: name,
      owner: this.ctx.account.access,
      acl: defaultAcl(this.ctx),
    });
    return name;
  }

  /** PutObject with a buffer body and its length. */
  async put(bucket: string, key: string, data: Buffer | string, extra: Partial<PutObjectInput> = {}) {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    return this.backend.putObject(this.ctx, {
      bucket,
      key,
      body: bodyOf(buf),
      contentLength: buf.length,
      ...extra,
    });
  }

  /** Asserts that HeadObject on `key` answers NoSuchKey (the object is not there, or no longer). */
  async expectNoKey(bucket: string, key: string): Promise<void> {
    await expectS3Error(this.backend.headObject(this.ctx, { bucket, key }), 'NoSuchKey');
  }

  /** GetObject and read the whole body. */
  async read(bucket: string, key: string, extra: Partial<GetObjectInput> = {}) {
    const out = await this.backend.getObject(this.ctx, { bucket, key, ...extra });
    return { ...out, data: await readAll(out.body) };
  }
}

export function defaultAcl(ctx: RequestContext) {
  return { Owner: ctx.account.access, Grantees: [] };
}

export function bodyOf(data: Buffer | string): Body {
  return Readable.from([typeof data === 'string' ? Buffer.from(data) : data]);
}

/** A body that yields `first` and then fails: the upload must not become visible. */
export function failingBody(first: Buffer): Body {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(first);
      } else {
        this.destroy(new Error('conformance: client went away mid-body'));
      }
    },
  });
}

async function readAll(body: Body): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body)
    chunks.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** Deterministic bytes (so a failure prints reproducible data), varied enough to catch offsets. */
export function pattern(size: number, seed = 1): Buffer {
  const buf = Buffer.alloc(size);
  let x = seed * 2654435761;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    buf[i] = x >>> 24;
  }
  return buf;
}

/** Asserts the promise rejects with an S3Error of `code` (and its table status unless overridden). */
export async function expectS3Error(p: Promise<unknown>, code: S3ErrorCode): Promise<S3Error> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected S3Error ${code}, but the call succeeded`).toBeDefined();
  // By shape, not instanceof: a backend may load this package from src/ or from dist/.
  const err = caught as S3Error;
  expect(err?.name, `expected an S3Error ${code}, got ${String(caught)}`).toBe('S3Error');
  expect(err.code).toBe(code);
  expect(err.status).toBe(statusOf(code));
  return err;
}

export const MiB = 1024 * 1024;
