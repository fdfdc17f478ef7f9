import { bucketConfigSuite } from './sdk-bucket-config.js';
import { MemoryBackend } from './support/memory-backend.js';
import { posixBackend } from './support/posix.js';

bucketConfigSuite('memory', async () => ({ backend: new MemoryBackend(), cleanup: async () => {} }));
bucketConfigSuite('posix', posixBackend);
