import { packageBuild } from '../../tsup.base.js';

// Two entries: the library (index) and the bin (main, with its shebang kept by tsup); declarations
// for the library only.
export default packageBuild({ entry: ['src/index.ts', 'src/main.ts'], dts: { entry: 'src/index.ts' } });
