import { project } from '../../vitest.shared.js';

// globalSetup checks that what plain `node` child processes load is built (npm test builds it
// first): the native shims, the workspace packages the gateway fixture imports and this
// package's dist/ (for the packaging test). The explicit server conditions keep the test
// processes' Node from resolving the AWS SDK's internal `module` builds (extensionless ESM).
const config = project('cuobjclient', { testTimeout: 120_000 });
export default {
  ...config,
  ssr: { resolve: { conditions: ['source', 'node', 'import', 'default'] } },
  test: { ...config.test, globalSetup: ['./test/global-setup.ts'] },
};
