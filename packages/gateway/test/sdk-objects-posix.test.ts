import { objectSuite } from './sdk-objects.js';
import { posixBackend } from './support/posix.js';

objectSuite('posix', posixBackend);
