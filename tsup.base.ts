// The one tsup configuration every package builds with: ESM for Node 20, declarations and source
// maps. A package passes only what differs (more entries, externals).
import { defineConfig, type Options } from 'tsup';

export function packageBuild(extra: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    ...extra,
  });
}
