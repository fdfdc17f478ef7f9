// The conformance kit against the in-memory backend: the memory backend is S3-conformant as far
// as the kit goes, and the kit's cases are coherent with each other (one backend passes them all).
import { runBackendConformance } from '@vgwrdma/backend-contract/conformance';
import { MemoryBackend } from '../src/memory/index.js';

runBackendConformance('memory', async () => {
  const backend = new MemoryBackend();
  return { backend, cleanup: () => backend.shutdown() };
});
