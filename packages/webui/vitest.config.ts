// The console's unit tests: its SigV4 requests checked by the gateway's own authenticator, in
// Node (the browser parts are covered by apps/vgwrdma's chromium tests against the built app).
import { project } from '../../vitest.shared.js';

export default project('webui');
