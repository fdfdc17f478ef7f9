// Builds the library entry (index) and the bin (main). main.ts starts with a `#!/usr/bin/env node`
// line, which esbuild keeps at the top of dist/main.js (and tsup marks the file executable).
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
