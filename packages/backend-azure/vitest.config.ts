// The backend's tests: unit tests of the mapping, and the conformance kit against Azurite
// (started once per run by the test-kit's globalSetup; the cases skip with the reason when it cannot start).
import { project } from '../../vitest.shared.js';

export default project('backend-azure');
