import { mergeConfig } from 'vitest/config';
import { project } from '../../vitest.shared.js';

// globalSetup checks that what plain `node` child processes load is built (npm test
// builds it first): the native shims and this package's dist/.
export default mergeConfig(project('rdma-ffi', { testTimeout: 120_000 }), {
  test: { globalSetup: ['./test/global-setup.ts'] },
});
