import { project } from '../vitest.shared.js';

export default project('native-shims', { include: ['test/**/*.test.ts'] });
