import { project } from '../../vitest.shared.js';

export default project('backend-contract');
