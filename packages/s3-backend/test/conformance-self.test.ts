// Runs the conformance kit against the in-memory reference backend: proves the kit's cases are
// coherent with each other (a backend can pass all of them at once).
import { runBackendConformance } from '../src/conformance/index.js';
import { MemoryBackend } from './memory-backend.js';

runBackendConformance('memory', async () => {
  const backend = new MemoryBackend();
  return { backend, cleanup: () => backend.shutdown() };
});
