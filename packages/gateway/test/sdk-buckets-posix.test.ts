import { bucketSuite } from './sdk-buckets.js';
import { posixBackend } from './support/posix.js';

bucketSuite('posix', posixBackend);
