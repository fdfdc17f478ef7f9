import { packageBuild } from '../../tsup.base.js';

// The scene subpath imports vitest: the test run's own copy, never bundled.
export default packageBuild({
  entry: ['src/index.ts', 'src/memory/index.ts', 'src/scene/index.ts'],
  external: ['vitest'],
});
