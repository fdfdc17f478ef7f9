import { mergeConfig } from 'vitest/config';
import { project } from '../../vitest.shared.js';

// globalSetup builds @vgwrdma/rdma-ffi's dist/ (and the shims when missing): the tests run the
// HostClient in a plain-node child process, which imports the built package.
export default mergeConfig(project('cu-backend', { testTimeout: 120_000 }), {
  test: { globalSetup: ['./test/global-setup.ts'] },
});
