// When a transfer may take a second channel (lane): a GET or PUT of more than two chunks, lanes
// wanted (getLanes / putLanes, default 2), at least three slices (two transfers in flight, one
// being drained or filled), and only while every free pool buffer still keeps a free channel
// after it — each request needs one of each, so a spare never makes another request decline.

import type { BufferPool } from '@vgwrdma/bufferpool';
import type { RdmaServer } from '@vgwrdma/rdma-ffi';
import type { RdmaSession } from './rdma-session.js';

/** Adds a second lane to `s` when the rule above allows; true when it did. */
export function takeSpareLane(
  server: RdmaServer,
  pool: BufferPool,
  s: RdmaSession,
  payload: number,
  wanted: 1 | 2 | undefined,
): boolean {
  if ((wanted ?? 2) < 2 || payload <= 2 * s.chunkSize || s.lanes > 1 || s.slices.length < 3) return false;
  const freeChannels = server.channelCount - server.channelsAllocated;
  if (freeChannels - 1 < pool.stats().free) return false;
  const spare = server.tryAllocateChannel();
  if (!spare) return false;
  s.addLane(spare);
  return true;
}
