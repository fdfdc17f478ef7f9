// Where koffi sits in an installed tree: every `node_modules/koffi` folder under a root (symlinks
// followed once, as pnpm's isolated layout has them), by real path, with the version each holds.
// The install tests count them: our packages must bring exactly one koffi 3 whatever the layout.
import { readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';

export interface KoffiCopy {
  readonly path: string;
  readonly version: string;
}

export async function koffiCopies(root: string): Promise<KoffiCopy[]> {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    const real = await realpath(dir).catch(() => undefined);
    if (real === undefined || seen.has(real)) return;
    seen.add(real);
    const entries = await readdir(real, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isDirectory() && !e.isSymbolicLink()) continue;
      const p = join(real, e.name);
      if (e.name === 'koffi' && real.endsWith('node_modules')) {
        const at = await realpath(p);
        const manifest = await readFile(join(at, 'package.json'), 'utf8').catch(() => undefined);
        if (manifest !== undefined) found.set(at, (JSON.parse(manifest) as { version: string }).version);
      }
      await walk(p);
    }
  };
  await walk(root);
  return [...found]
    .map(([path, version]) => ({ path, version }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
