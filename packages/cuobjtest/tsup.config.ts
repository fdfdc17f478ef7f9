import { defineConfig } from 'tsup';

// Two entries: the library (index) and the bin (main, with its shebang kept by tsup).
export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
