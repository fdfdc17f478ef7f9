// @vgwrdma/test-kit/memory: the in-memory Backend (a subpath of its own, so tests that never use
// it do not load @vgwrdma/backend-contract through the kit).
export { MemoryBackend } from './backend.js';
export { MemoryObjects } from './objects.js';
export type { MemBucket, MemObject, MemPart, MemUpload } from './store.js';
