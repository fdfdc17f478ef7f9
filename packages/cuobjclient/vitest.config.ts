import { project } from '../../vitest.shared.js';

// globalSetup builds what plain `node` child processes load: the native shims (when missing),
// the workspace packages the gateway fixture imports (when their dist/ is stale) and this
// package's dist/ (for the packaging test). The explicit server conditions keep the test
// processes' Node from resolving the AWS SDK's internal `module` builds (extensionless ESM).
const config = project('cuobjclient', { testTimeout: 120_000 });
export default {
  ...config,
  ssr: { resolve: { conditions: ['source', 'node', 'import', 'default'] } },
  test: { ...config.test, globalSetup: ['./test/global-setup.ts'] },
};
