import { defineProject } from 'vitest/config';

// Shared per-package settings. The `source` condition makes workspace imports resolve to
// TypeScript sources, so a package's tests never run against a stale build of its dependencies.
export function project(name: string, extra: { testTimeout?: number; include?: string[] } = {}) {
  return defineProject({
    resolve: { conditions: ['source'] },
    test: {
      name,
      include: extra.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: extra.testTimeout ?? 20_000,
      hookTimeout: 60_000,
      pool: 'forks',
    },
  });
}
