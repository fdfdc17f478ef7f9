import { project } from '../../vitest.shared.js';

export default project('bufferpool', { testTimeout: 60_000 });
