// Unit tests (test/*.test.ts) and end-to-end tests (test/**/*.e2e.test.ts) that start the built
// gateway as a child process; those talk to real processes, hence the timeouts.
// globalSetup only checks that the builds they start exist (npm test builds before vitest).
import type { UserWorkspaceConfig } from 'vitest/config';
import { project } from '../../vitest.shared.js';

const base: UserWorkspaceConfig = project('vgwrdma', {
  testTimeout: 60_000,
});

// The AWS SDK packages export bundler-only ESM (extensionless imports) under the 'module'
// condition, which Node cannot load once vitest externalizes them: resolve packages as Node does,
// keeping 'source' so workspace imports still reach src/.
const conditions = ['source', 'node', 'import', 'default'];

export default {
  ...base,
  resolve: { ...base.resolve, conditions },
  ssr: { ...base.ssr, resolve: { ...base.ssr?.resolve, conditions } },
  test: {
    ...base.test,
    globalSetup: ['./test/global-setup.ts', './test/slapd-setup.ts', './test/install/pack-setup.ts'],
  },
} satisfies UserWorkspaceConfig;
