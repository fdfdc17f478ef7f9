import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { bucketSuite } from './sdk-buckets.js';

bucketSuite('memory', async () => ({ backend: new MemoryBackend(), cleanup: async () => {} }));
