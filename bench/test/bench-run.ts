// bench/run.mjs as these tests run it: a child Node process with the given flags (`benchProcess`),
// or a whole run into a fresh output folder whose one JSON document (named with a prefix) is read
// back (`runBench`); the folder stays for the test to read more from, until `removeOut`.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const RUN = fileURLToPath(new URL('../run.mjs', import.meta.url));

/** Runs `node bench/run.mjs ...args`; rejects (with code and stderr) when it exits non-zero. */
export function benchProcess(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [RUN, ...args], { maxBuffer: 16 << 20 });
}

export interface BenchRun<T> {
  /** The output folder (--out). */
  readonly out: string;
  /** The run's JSON document. */
  readonly doc: T;
  readonly stdout: string;
}

/**
 * Runs the bench with `args` and `--out` a fresh folder under the system temp dir (`folderPrefix`),
 * and reads the document: the folder must hold exactly one `<docPrefix>*.json`.
 */
export async function runBench<T>(
  folderPrefix: string,
  args: readonly string[],
  docPrefix = '',
): Promise<BenchRun<T>> {
  const out = await mkdtemp(join(tmpdir(), folderPrefix));
  try {
    const { stdout } = await benchProcess([...args, '--out', out]);
    const json = (await readdir(out)).filter((f) => f.startsWith(docPrefix) && f.endsWith('.json'));
    expect(json).toHaveLength(1);
    const doc = JSON.parse(await readFile(join(out, json[0] as string), 'utf8')) as T;
    return { out, doc, stdout };
  } catch (error) {
    await removeOut(out);
    throw error;
  }
}

/** Removes a run's output folder (nothing when the run never made one). */
export async function removeOut(out: string | undefined): Promise<void> {
  if (out) await rm(out, { recursive: true, force: true });
}
