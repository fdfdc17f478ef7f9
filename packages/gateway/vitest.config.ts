import type { UserWorkspaceConfig } from 'vitest/config';
import { project } from '../../vitest.shared.js';

const base: UserWorkspaceConfig = project('gateway');

// The AWS SDK's packages export bundler-only ESM (extensionless imports) under the 'module'
// condition, which Node cannot load: resolve them as Node does, keeping 'source' for the
// workspace packages.
const conditions = ['source', 'node', 'import', 'default'];

export default {
  ...base,
  resolve: { ...base.resolve, conditions },
  ssr: { ...base.ssr, resolve: { ...base.ssr?.resolve, conditions } },
} satisfies UserWorkspaceConfig;
