import { project } from '../vitest.shared.js';

// The harness's own test: runs `bench/run.mjs --tiny` (real gateway, s3rver, cuobjtest, small
// sizes) and checks the document's shape and verification, never a time.
const config = project('bench', { testTimeout: 120_000, include: ['test/**/*.test.ts'] });
export default { ...config, test: { ...config.test, globalSetup: ['./test/global-setup.ts'] } };
