import { packageBuild } from '../../tsup.base.js';

// The kernels subpath is a second entry and the command line of the `vgwrdma-native` bin a third;
// backend-contract (its peer) stays the user's own copy.
export default packageBuild({
  entry: ['src/index.ts', 'src/kernels/index.ts', 'src/cli.ts'],
  external: ['@vgwrdma/backend-contract'],
});
