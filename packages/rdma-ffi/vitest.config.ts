import { mergeConfig } from 'vitest/config';
import { project } from '../../vitest.shared.js';

// globalSetup builds what the tests need and plain `node` child processes load: the native
// shims (only when missing) and this package's dist/ (always, so children never run stale code).
export default mergeConfig(project('rdma-ffi', { testTimeout: 120_000 }), {
  test: { globalSetup: ['./test/global-setup.ts'] },
});
