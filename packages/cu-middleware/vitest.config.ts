import { project } from '../../vitest.shared.js';

export default project('cu-middleware', { testTimeout: 60_000 });
