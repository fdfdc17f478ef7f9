// The one tsup configuration every package builds with: ESM for Node 20, declarations and source
// maps. A package passes only what differs (more entries, externals). Every `@vgwrdma/*` import
// stays an import: no package bundles another workspace package's source into its dist/ (it must
// list what it imports in dependencies; scripts/test/dist-bundling.test.ts checks both).
import { defineConfig, type Options } from 'tsup';

/** Workspace packages are always imported, never bundled. */
const WORKSPACE = /^@vgwrdma\//;

export function packageBuild(extra: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    ...extra,
    external: [WORKSPACE, ...(extra.external ?? [])],
  });
}
