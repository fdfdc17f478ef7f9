import { defineProject } from 'vitest/config';

// Shared per-package settings. The `source` condition makes workspace imports resolve to
// TypeScript sources, so a package's tests never run against a stale build of its dependencies.
// Vitest runs test files in vite's server (SSR) environment, so the condition must be set there.
// vite's default 'module' condition is left out on purpose: the AWS SDK exports bundler-only ESM
// (extensionless imports) under it, which Node cannot load; everything resolves as Node would.
const conditions = ['source', 'node', 'development|production'];

export function project(name: string, extra: { testTimeout?: number; include?: string[] } = {}) {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['node'] } },
    test: {
      name,
      include: extra.include ?? ['test/**/*.test.ts'],
      testTimeout: extra.testTimeout ?? 20_000,
      hookTimeout: 60_000,
      pool: 'forks',
      // expect.poll waits for a settled state; its 1 s default is a moment on a loaded machine
      // (CI shares two cores). A passing poll returns as soon as it holds.
      expect: { poll: { timeout: 15_000 } },
    },
  });
}
