// Unit tests beside the code (src/**/*.test.ts) and end-to-end tests (test/*.e2e.test.ts) that
// start the built gateway as a child process; those talk to real processes, hence the timeouts.
import { project } from '../../vitest.shared.js';

export default project('vgwrdma', {
  include: ['src/**/*.test.ts', 'test/**/*.e2e.test.ts'],
  testTimeout: 60_000,
});
