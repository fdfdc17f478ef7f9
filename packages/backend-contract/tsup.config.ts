import { packageBuild } from '../../tsup.base.js';

// The conformance kit is a second entry; it imports vitest, which stays the user's own copy.
export default packageBuild({ entry: ['src/index.ts', 'src/conformance/index.ts'], external: ['vitest'] });
