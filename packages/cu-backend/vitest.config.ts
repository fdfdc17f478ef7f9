import type { UserWorkspaceConfig } from 'vitest/config';
import { project } from '../../vitest.shared.js';

const base: UserWorkspaceConfig = project('cu-backend', { testTimeout: 120_000 });

// The AWS SDK's packages export bundler-only ESM (extensionless imports) under the 'module'
// condition, which Node cannot load: resolve them as Node does, keeping 'source' for the
// workspace packages (as packages/gateway does).
const conditions = ['source', 'node', 'import', 'default'];

// globalSetup checks that the native shims are built (the HostClient child and the server load them).
export default {
  ...base,
  resolve: { ...base.resolve, conditions },
  ssr: { ...base.ssr, resolve: { ...base.ssr?.resolve, conditions } },
  test: { ...base.test, globalSetup: ['./test/global-setup.ts'] },
} satisfies UserWorkspaceConfig;
