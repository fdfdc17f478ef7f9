import { defineConfig } from 'vitest/config';

// One vitest run over every workspace project; each package has its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'native-shims', 'bench', 'scripts'],
  },
});
