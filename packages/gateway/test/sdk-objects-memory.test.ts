import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { objectSuite } from './sdk-objects.js';

objectSuite('memory', async () => ({ backend: new MemoryBackend(), cleanup: async () => {} }));
