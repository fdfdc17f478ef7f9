// The release as a maintainer makes it: `node scripts/release-pack.mjs --out DIR` writes every
// publishable tarball, then `npm publish <tgz>` sends each to the registry. Returns the names and
// versions published, read back from the registry, so a test can say what a user can install.
import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir, REPO_ROOT, removeDir } from '@vgwrdma/test-kit';
import { NpmUser } from './npm-user.js';
import type { Registry } from './registry.js';

const run = promisify(execFile);

export interface Published {
  /** Package name → version, as the registry's `dist-tags.latest` says. */
  readonly packages: ReadonlyMap<string, string>;
  /** Tarball file name → size in bytes. */
  readonly tarballs: ReadonlyMap<string, number>;
}

async function packRelease(out: string): Promise<string[]> {
  await run(process.execPath, [join(REPO_ROOT, 'scripts', 'release-pack.mjs'), '--out', out], {
    cwd: REPO_ROOT,
    timeout: 300_000,
    maxBuffer: 16 << 20,
  });
  const files = (await readdir(out)).filter((f) => f.endsWith('.tgz')).sort();
  if (files.length === 0) throw new Error(`release-pack wrote no tarball to ${out}`);
  return files;
}

export async function publishRelease(registry: Registry): Promise<Published> {
  const out = await makeTempDir('vgwrdma-release-');
  try {
    const files = await packRelease(out);
    const maintainer = await NpmUser.create({ registry: registry.url, token: registry.token });
    const tarballs = new Map<string, number>();
    const packages = new Map<string, string>();
    // A few at a time: each `npm publish` is mostly npm's own start-up.
    const queue = [...files];
    const publishNext = async (): Promise<void> => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const printed = await maintainer.npm(['publish', join(out, file)], out, 120_000);
        // npm prints `+ <name>@<version>` for what it published.
        const match = /^\+ (@?[^@\s]+)@(\S+)$/m.exec(printed);
        if (!match?.[1] || !match[2]) throw new Error(`npm publish ${file} printed no package:\n${printed}`);
        packages.set(match[1], match[2]);
        tarballs.set(file, (await stat(join(out, file))).size);
      }
    };
    await Promise.all([publishNext(), publishNext(), publishNext(), publishNext()]);
    await removeDir(maintainer.home);
    return { packages, tarballs };
  } finally {
    await removeDir(out);
  }
}
