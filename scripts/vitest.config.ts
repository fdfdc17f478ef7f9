import { project } from '../vitest.shared.js';

// The release tooling's tests: release:pack's tarballs (publint, attw, contents, require() from a
// scratch install), release:version on a temporary copy of the workspace, and the docs' links.
// scripts/ is not a workspace package; its tests are type-checked by `npm run typecheck`.
export default project('scripts', { testTimeout: 300_000 });
