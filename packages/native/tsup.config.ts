import { packageBuild } from '../../tsup.base.js';

// The kernels subpath is a second entry; s3-backend (its peer) stays the user's own copy.
export default packageBuild({
  entry: ['src/index.ts', 'src/kernels/index.ts'],
  external: ['@vgwrdma/s3-backend'],
});
