// Start-up cleanup on a tree other gateways may share: only what a dead process of this host left,
// or what nobody touched for the age limit, is removed from `.sgwtmp`; multipart claims follow
// the same rule. A gateway starting next to a busy one must not cut off its uploads.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, rename, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/fs/layout.js';
import { cleanStaleTemps, ownerId, PosixBackend } from '../src/index.js';
import { XattrStore } from '../src/meta/xattr-store.js';
import { body, ctx, deadPid, type Fixture, fixture, withBucket } from './helpers.js';

const HOUR = 60 * 60 * 1000;
let f: Fixture;
let bucket: string;
let tmp: string;
beforeEach(async () => {
  f = await fixture();
  bucket = await withBucket(f);
  tmp = join(f.root, bucket, '.sgwtmp');
  await mkdir(tmp, { recursive: true });
});
afterEach(() => f.cleanup());

async function temp(name: string, ageMs = 0): Promise<void> {
  await writeFile(join(tmp, name), 'partial');
  if (ageMs > 0) {
    const t = new Date(Date.now() - ageMs);
    await utimes(join(tmp, name), t, t);
  }
}

const left = async () => (await readdir(tmp)).filter((n) => n !== 'multipart').sort();

describe('stale temp files', () => {
  it("removes a dead local process's temp file at once, keeps a live one's and a foreign host's", async () => {
    const dead = `${ownerId(deadPid())}.aaaa`;
    const live = `${ownerId(1)}.bbbb`; // pid 1 always runs
    const foreign = 'ffffffffffff-4242.cccc'; // another boot or pid namespace: its pids mean nothing here
    const unmarked = 'dddddddddddddddddddddddd'; // a name from before owners were recorded
    for (const n of [dead, live, foreign, unmarked]) await temp(n);
    expect(await cleanStaleTemps(f.root, new XattrStore(f.root))).toBe(1);
    expect(await left()).toEqual([foreign, live, unmarked, dead].filter((n) => n !== dead).sort());
  });

  it('removes anything older than the age limit, whoever owns it', async () => {
    await temp(`${ownerId(1)}.old`, 2 * HOUR);
    await temp('ffffffffffff-4242.old', 2 * HOUR);
    await temp('unmarked-old', 2 * HOUR);
    await temp('ffffffffffff-4242.young', 10 * 60 * 1000);
    expect(await cleanStaleTemps(f.root, new XattrStore(f.root))).toBe(3);
    expect(await left()).toEqual(['ffffffffffff-4242.young']);
  });

  it('the age limit is an option of the backend (staleTempAgeMs)', async () => {
    await temp('ffffffffffff-4242.young', 10 * 60 * 1000);
    await PosixBackend.open({ root: f.root, staleTempAgeMs: 2 * HOUR });
    expect(await left()).toEqual(['ffffffffffff-4242.young']);
    await PosixBackend.open({ root: f.root, staleTempAgeMs: 60 * 1000 });
    expect(await left()).toEqual([]);
  });

  it("a second gateway opening the tree leaves the first one's upload in progress alone", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    async function* slowBody() {
      yield Buffer.alloc(1024, 1);
      await gate;
      yield Buffer.alloc(1024, 2);
    }
    const { Readable } = await import('node:stream');
    const writing = f.backend.putObject(ctx(), {
      bucket,
      key: 'busy',
      body: Readable.from(slowBody()),
      contentLength: 2048,
    });
    while ((await left()).length === 0) await new Promise((r) => setTimeout(r, 5));
    await PosixBackend.open({ root: f.root }); // the second gateway starts here
    release();
    const out = await writing;
    expect(out.size).toBe(2048);
    expect(await left()).toEqual([]);
  });
});

describe('stale multipart claims', () => {
  async function claimedUpload(key: string, owner: string | undefined) {
    const up = await f.backend.createMultipartUpload(ctx(), { bucket, key });
    await f.backend.uploadPart(ctx(), {
      bucket,
      key,
      uploadId: up.uploadId,
      partNumber: 1,
      body: body('x'),
    });
    const dir = join(tmp, 'multipart', sha256Hex(key));
    const claim = join(dir, `${up.uploadId}.0123456789abcdef0123456789abcdef-1.inprogress`);
    await rename(join(dir, up.uploadId), claim);
    if (owner !== undefined) execFileSync('setfattr', ['-n', 'user.vgwrdma-claim-owner', '-v', owner, claim]);
    return { dir, uploadId: up.uploadId };
  }

  it("gives back a dead process's claim, keeps a live or unknown owner's until it ages out", async () => {
    const dead = await claimedUpload('dead', ownerId(deadPid()));
    const live = await claimedUpload('live', ownerId(1));
    const unknown = await claimedUpload('unknown', undefined);
    await PosixBackend.open({ root: f.root });
    expect(await readdir(dead.dir)).toEqual([dead.uploadId]);
    expect(await readdir(live.dir)).toEqual([expect.stringMatching(/\.inprogress$/)]);
    expect(await readdir(unknown.dir)).toEqual([expect.stringMatching(/\.inprogress$/)]);
    // An hour later (the claim's ctime is its age), both are given back.
    await cleanStaleTemps(f.root, new XattrStore(f.root), { now: Date.now() + 2 * HOUR });
    expect(await readdir(live.dir)).toEqual([live.uploadId]);
    expect(await readdir(unknown.dir)).toEqual([unknown.uploadId]);
  });
});
