// The publishable packages of this workspace, read from pnpm-workspace.yaml's globs: every
// package.json that is not `private`. A per-platform native package (one with `os`/`cpu` fields)
// is publishable only where its library was built; `missing` lists the `files` entries that are
// absent, so the caller can skip it and say why instead of packing an empty package.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** `packages/*` style globs only: a folder, or every folder directly under one. */
function workspaceDirs(root) {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...yaml.matchAll(/^\s*-\s*['"]?([^'"\n]+?)['"]?\s*$/gm)].map((m) => m[1]);
  return globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [join(root, glob)];
    const parent = join(root, glob.slice(0, -2));
    if (!existsSync(parent)) return [];
    return readdirSync(parent, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(parent, d.name));
  });
}

/** The files an exports map points at (conditions of the published map, `source` left out). */
function exportTargets(exportsMap) {
  const out = [];
  const walk = (v, key) => {
    if (typeof v === 'string') {
      if (key !== 'source') out.push(v);
    } else if (v && typeof v === 'object') for (const [k, w] of Object.entries(v)) walk(w, k);
  };
  walk(exportsMap, '');
  return out;
}

export function publishablePackages(root) {
  const found = [];
  for (const dir of workspaceDirs(root)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.private) continue;
    const platform = Boolean(manifest.os || manifest.cpu);
    const wanted = [
      ...(manifest.files ?? []).filter((f) => !f.startsWith('!') && !/[*?]/.test(f)),
      ...exportTargets(manifest.publishConfig?.exports ?? manifest.exports ?? {}),
      ...Object.values(typeof manifest.bin === 'string' ? { b: manifest.bin } : (manifest.bin ?? {})),
    ];
    const missing = [...new Set(wanted)].filter((f) => !existsSync(join(dir, f)));
    found.push({
      dir,
      path: relative(root, dir),
      name: manifest.name,
      version: manifest.version,
      platform,
      missing,
    });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
