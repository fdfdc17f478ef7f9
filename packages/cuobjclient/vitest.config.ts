import { mergeConfig } from 'vitest/config';
import { project } from '../../vitest.shared.js';

// globalSetup builds what plain `node` child processes load: the native shims (when missing),
// the workspace packages the gateway fixture imports (when their dist/ is missing) and this
// package's dist/ (always, so the packaging test never packs stale code).
export default mergeConfig(project('cuobjclient', { testTimeout: 120_000 }), {
  test: { globalSetup: ['./test/global-setup.ts'] },
});
