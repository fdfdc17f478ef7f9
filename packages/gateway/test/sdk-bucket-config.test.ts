import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { bucketConfigSuite } from './sdk-bucket-config.js';
import { posixBackend } from './support/posix.js';

bucketConfigSuite('memory', async () => ({ backend: new MemoryBackend(), cleanup: async () => {} }));
bucketConfigSuite('posix', posixBackend);
