// @vgwrdma/bufferpool — a fixed pool of pre-allocated, pre-registered RDMA buffers: leases with
// bounded waits, slices for pipelining inside one buffer, stats, and a close that frees all.

export { BufferLease, type BufferSlice } from './buffer-lease.js';
export {
  type AcquireOptions,
  BufferPool,
  type BufferPoolOptions,
  type BufferPoolStats,
} from './buffer-pool.js';
export { PoolError, type PoolErrorCode } from './errors.js';
