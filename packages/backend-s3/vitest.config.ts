// The conformance kit runs against a second gateway process (posix) over HTTP: generous timeouts.
import { project } from '../../vitest.shared.js';

export default project('backend-s3', { testTimeout: 60_000 });
