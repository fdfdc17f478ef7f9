// One release pack per vitest run for the install tests (the registry rehearsal, install:clone):
// `scripts/release-pack.mjs` takes a minute or more, so the first test file that needs the
// tarballs packs them into the folder pack-setup.ts made for the run, and the others (in other
// worker processes) wait until that pack has settled — its result file written, success or not.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@vgwrdma/test-kit';

const run = promisify(execFile);

/** Set by pack-setup.ts (the project's globalSetup) for the worker processes. */
export const PACK_ENV = 'VGWRDMA_TEST_RELEASE_PACK';
const WAIT_MS = 10 * 60_000;

export interface PackedTarball {
  readonly name: string;
  readonly version: string;
  /** Absolute path of the tarball. */
  readonly file: string;
  readonly bytes: number;
}

export interface ReleasePack {
  /** The folder holding every tarball (release-pack's --out). */
  readonly dir: string;
  readonly tarballs: readonly PackedTarball[];
}

type Settled = { ok: true; pack: ReleasePack } | { ok: false; error: string };

async function pack(base: string): Promise<Settled> {
  const dir = join(base, 'tarballs');
  try {
    const { stdout } = await run(
      process.execPath,
      [join(REPO_ROOT, 'scripts', 'release-pack.mjs'), '--out', dir, '--json'],
      { cwd: REPO_ROOT, timeout: 300_000, maxBuffer: 16 << 20 },
    );
    const tarballs = JSON.parse(stdout) as PackedTarball[];
    if (tarballs.length === 0) return { ok: false, error: `release-pack wrote no tarball to ${dir}` };
    return { ok: true, pack: { dir, tarballs } };
  } catch (err) {
    const e = err as { message: string; stderr?: string };
    return { ok: false, error: `release-pack failed: ${e.message}\n${e.stderr ?? ''}` };
  }
}

async function readSettled(file: string): Promise<Settled | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as Settled);
}

/** The run's release pack, made by whichever caller comes first; the others wait for it. */
export async function sharedReleasePack(): Promise<ReleasePack> {
  const base = process.env[PACK_ENV];
  if (!base) throw new Error(`${PACK_ENV} is not set: run the install tests through the vgwrdma project`);
  const result = join(base, 'result.json');
  let settled: Settled | undefined;
  try {
    await mkdir(join(base, 'lock')); // atomic: exactly one caller gets it
    settled = await pack(base);
    await writeFile(`${result}.tmp`, JSON.stringify(settled));
    await rename(`${result}.tmp`, result);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const deadline = Date.now() + WAIT_MS;
    settled = await readSettled(result);
    while (settled === undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      settled = await readSettled(result);
    }
  }
  if (settled === undefined)
    throw new Error(`the shared release pack in ${base} did not settle in 10 minutes`);
  if (!settled.ok) throw new Error(settled.error);
  return settled.pack;
}
