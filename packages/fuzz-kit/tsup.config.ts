import { packageBuild } from '../../tsup.base.js';

// fast-check stays an import: the test run's own copy, so arbitraries and fc.assert agree.
export default packageBuild({ external: ['fast-check'] });
