import { packageBuild } from '../../tsup.base.js';

// The library entry (index) and the bin (main). main.ts starts with a `#!/usr/bin/env node` line,
// which esbuild keeps at the top of dist/main.js (and tsup marks the file executable).
export default packageBuild({ entry: ['src/index.ts', 'src/main.ts'] });
