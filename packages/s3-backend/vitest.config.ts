import { project } from '../../vitest.shared.js';

export default project('s3-backend');
