import { cpSync, existsSync } from 'node:fs';
import { packageBuild } from '../../tsup.base.js';

// The library entry (index) and the bin (main). main.ts starts with a `#!/usr/bin/env node` line,
// which esbuild keeps at the top of dist/main.js (and tsup marks the file executable).
// The web console (packages/webui, built first by turbo: a devDependency) is copied into
// dist/webui, which --webui serves; the published package carries it and needs no network.
const CONSOLE_BUILD = new URL('../../packages/webui/dist/', import.meta.url);

export default packageBuild({
  entry: ['src/index.ts', 'src/main.ts'],
  onSuccess: async () => {
    if (!existsSync(CONSOLE_BUILD))
      throw new Error('packages/webui/dist is missing: build @vgwrdma/webui first (turbo does)');
    cpSync(CONSOLE_BUILD, new URL('./dist/webui/', import.meta.url), { recursive: true });
  },
});
