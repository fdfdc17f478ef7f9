// The release as a maintainer makes it: `node scripts/release-pack.mjs --out DIR` writes every
// publishable tarball (once per vitest run, shared-pack.ts), then `npm publish <tgz>` sends each
// to the registry. Returns the names and versions published, read back from the registry, so a
// test can say what a user can install.
import { basename } from 'node:path';
import { removeDir } from '@vgwrdma/test-kit';
import { NpmUser } from './npm-user.js';
import type { Registry } from './registry.js';
import { sharedReleasePack } from './shared-pack.js';

export interface Published {
  /** Package name → version, as the registry's `dist-tags.latest` says. */
  readonly packages: ReadonlyMap<string, string>;
  /** Tarball file name → size in bytes. */
  readonly tarballs: ReadonlyMap<string, number>;
}

export async function publishRelease(registry: Registry): Promise<Published> {
  // The run's one pack (shared-pack.ts): install:clone's test installs the same tarballs.
  const pack = await sharedReleasePack();
  const files = pack.tarballs.map((t) => t.file);
  const maintainer = await NpmUser.create({ registry: registry.url, token: registry.token });
  const tarballs = new Map<string, number>();
  const packages = new Map<string, string>();
  // A few at a time: each `npm publish` is mostly npm's own start-up.
  const queue = [...files];
  const publishNext = async (): Promise<void> => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const printed = await maintainer.npm(['publish', file], pack.dir, 120_000);
      // npm prints `+ <name>@<version>` for what it published.
      const match = /^\+ (@?[^@\s]+)@(\S+)$/m.exec(printed);
      if (!match?.[1] || !match[2]) throw new Error(`npm publish ${file} printed no package:\n${printed}`);
      packages.set(match[1], match[2]);
      const packed = pack.tarballs.find((t) => t.file === file);
      tarballs.set(basename(file), packed?.bytes ?? -1);
    }
  };
  await Promise.all([publishNext(), publishNext(), publishNext(), publishNext()]);
  await removeDir(maintainer.home);
  return { packages, tarballs };
}
