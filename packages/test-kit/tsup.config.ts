import { packageBuild } from '../../tsup.base.js';

export default packageBuild({ entry: ['src/index.ts', 'src/memory/index.ts'] });
