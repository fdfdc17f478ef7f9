// No package bundles another workspace package's source into its dist/: every built package (the
// ones tsup builds: packages/* and apps/*, not the web console, a browser bundle by nature) must
// import `@vgwrdma/*` by name, and name what it imports in dependencies or peerDependencies.
// Read from the build's source maps (each lists the files that went into a dist/ file) and from
// the import specifiers of dist/*.js. Runs after `npm run build` (npm test builds first).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** Every workspace package built by tsup: its folder and manifest. */
function tsupPackages(): { dir: string; manifest: Manifest }[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(ROOT, group))
      .map((name) => join(ROOT, group, name))
      .filter((dir) => existsSync(join(dir, 'tsup.config.ts')))
      .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) })),
  );
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Sources of one source map that lie in another workspace package's folder. */
function foreignSources(mapFile: string, ownDir: string, text: string): string[] {
  const { sources } = JSON.parse(text) as { sources: string[] };
  const workspace = [join(ROOT, 'packages'), join(ROOT, 'apps')];
  return sources.filter((s) => {
    const file = resolve(dirname(mapFile), s);
    if (file.startsWith(ownDir + sep)) return false;
    return workspace.some((w) => file.startsWith(w + sep)) && !file.includes(`${sep}node_modules${sep}`);
  });
}

/** `@vgwrdma/<name>` packages a built file imports (static, dynamic and re-exports). */
function workspaceImports(js: string): string[] {
  const names = [...js.matchAll(/(?:from\s*|import\s*\(?\s*)['"](@vgwrdma\/[a-z0-9-]+)/g)].map(
    (m) => m[1] ?? '',
  );
  return [...new Set(names)];
}

const PACKAGES = tsupPackages();

describe('dist/ of every tsup-built package', () => {
  it('finds the built packages', () => {
    expect(PACKAGES.length).toBeGreaterThan(10);
    for (const { dir } of PACKAGES)
      expect(existsSync(join(dir, 'dist')), `${dir}/dist: build first`).toBe(true);
  });

  it.each(PACKAGES.map((p) => [relative(ROOT, p.dir), p] as const))(
    '%s holds only its own source and imports only what it declares',
    (_, { dir, manifest }) => {
      const files = filesUnder(join(dir, 'dist')).filter((f) => !f.includes(`${sep}webui${sep}`));
      const bundled = files
        .filter((f) => f.endsWith('.js.map'))
        .flatMap((f) =>
          foreignSources(f, dir, readFileSync(f, 'utf8')).map((s) => `${relative(dir, f)}: ${s}`),
        );
      expect(bundled).toEqual([]);
      const declared = new Set([
        manifest.name,
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
        ...Object.keys(manifest.optionalDependencies ?? {}),
      ]);
      const undeclared = files
        .filter((f) => f.endsWith('.js'))
        .flatMap((f) => workspaceImports(readFileSync(f, 'utf8')).filter((n) => !declared.has(n)));
      expect([...new Set(undeclared)]).toEqual([]);
    },
  );

  it('the check sees a bundled workspace source (control)', () => {
    const own = join(ROOT, 'packages', 'gateway');
    const map = join(own, 'dist', 'index.js.map');
    const text = JSON.stringify({ sources: ['../src/index.ts', '../../rdma-protocol/src/token-codec.ts'] });
    expect(foreignSources(map, own, text)).toEqual(['../../rdma-protocol/src/token-codec.ts']);
    expect(
      workspaceImports(`import { a } from '@vgwrdma/errors';\nexport * from "@vgwrdma/native";`),
    ).toEqual(['@vgwrdma/errors', '@vgwrdma/native']);
  });
});
