import { bucketSuite } from './sdk-buckets.js';
import { MemoryBackend } from './support/memory-backend.js';

bucketSuite('memory', async () => ({ backend: new MemoryBackend(), cleanup: async () => {} }));
