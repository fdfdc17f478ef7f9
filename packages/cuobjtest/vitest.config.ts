import { mergeConfig } from 'vitest/config';
import { project } from '../../vitest.shared.js';

// globalSetup builds the dist/ the cuobjtest child process runs (and what it imports).
export default mergeConfig(project('cuobjtest', { testTimeout: 120_000 }), {
  test: { globalSetup: ['./test/global-setup.ts'] },
});
