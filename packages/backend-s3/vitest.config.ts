// Unit tests only: the suites that need an upstream gateway process live with the app's
// end-to-end tests (apps/vgwrdma/test/backend-s3/).
import { project } from '../../vitest.shared.js';

export default project('backend-s3');
