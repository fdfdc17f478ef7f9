import { project } from '../../vitest.shared.js';

// globalSetup checks that the dist/ the cuobjtest child process runs (and what it imports) is
// built. The explicit server conditions keep Node in the test processes from resolving the AWS
// SDK's internal `module` builds (extensionless ESM it cannot load).
const config = project('cuobjtest', { testTimeout: 120_000 });
export default {
  ...config,
  ssr: { resolve: { conditions: ['source', 'node', 'import', 'default'] } },
  test: { ...config.test, globalSetup: ['./test/global-setup.ts'] },
};
