import { objectSuite } from './sdk-objects.js';
import { MemoryBackend } from './support/memory-backend.js';

objectSuite('memory', async () => ({ backend: new MemoryBackend(), cleanup: async () => {} }));
