// What a managed transfer reads from and writes to, made uniform: the memory kind its pooled
// sessions need, its size (or capacity), and how one part's bytes get into a session's
// registered memory (upload) or out of it (download). A Uint8Array's part is copied on the libuv
// pool (host-copy.ts), so the parts in flight copy side by side. GPU memory the caller owns is copied
// straight between its device address and the session's pinned host twin on the libuv pool
// (rdma-ffi DeviceMemory.twinFromDevice / twinToDevice): one copy per part, no registration of
// the caller's memory, and with several parts in flight the copies of one part overlap the
// transfers of the others.

import type { DeviceMemory } from '@vgwrdma/rdma-ffi';
import { CuObjError } from './errors.js';
import { copyPart } from './host-copy.js';
import type { SessionMemory } from './open-buffer.js';
import type { DeliverPart, FillPart } from './part-io.js';
import type { SessionBuffer } from './session-buffer.js';
import type {
  DestinationWriter,
  DeviceMemoryRef,
  DownloadDestination,
  SourceReader,
  UploadSource,
} from './transfer-types.js';

/** A part's bytes into the session's registered memory (upload) or out of it (download). */
type MovePart = FillPart & DeliverPart;

export interface Endpoint {
  readonly memory: SessionMemory;
  /** Upload: object size. Download: capacity. */
  readonly size: number;
  /** Upload: fills a part into the session's memory. Download: takes a received part out of it. */
  readonly part: MovePart;
}

function invalid(message: string): CuObjError {
  return new CuObjError('VGW_ERR_CUOBJ_INVALID_OPTION', message);
}

function isDevice(x: unknown): x is DeviceMemoryRef {
  return (x as DeviceMemoryRef | undefined)?.memory === 'cuda';
}

function deviceOf(mem: SessionBuffer): DeviceMemory {
  if (mem.device === undefined) throw new CuObjError('VGW_ERR_CUOBJ_WRONG_MEMORY', 'expected a CUDA session');
  return mem.device;
}

/** The bytes of any typed array or DataView (offsets and lengths in bytes, whatever its element). */
function byteView(v: ArrayBufferView): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

function hostEndpoint(size: number, part: MovePart): Endpoint {
  return { memory: 'host', size, part };
}

/** The caller's GPU memory: each part is copied between it and the session's pinned host twin. */
function deviceEndpoint(
  what: 'source' | 'destination',
  d: DeviceMemoryRef,
  copy: (device: DeviceMemory, at: bigint, length: number) => Promise<void>,
): Endpoint {
  if (typeof d.devicePtr !== 'bigint' || d.devicePtr <= 0n)
    throw invalid(`${what}.devicePtr must be a non-zero BigInt device address`);
  if (!Number.isSafeInteger(d.size) || d.size < 0) throw invalid(`${what}.size must be a byte count`);
  return {
    memory: 'cuda',
    size: d.size,
    part: (_view, mem, span) => copy(deviceOf(mem), d.devicePtr + BigInt(span.offset), span.length),
  };
}

export function uploadEndpoint(src: UploadSource): Endpoint {
  if (ArrayBuffer.isView(src)) {
    const bytes = byteView(src);
    return hostEndpoint(bytes.byteLength, (view, _mem, span) =>
      copyPart(view, bytes.subarray(span.offset, span.offset + span.length)),
    );
  }
  if (isDevice(src)) return deviceEndpoint('source', src, (device, at, n) => device.twinFromDevice(at, n));
  const reader = src as SourceReader;
  if (typeof reader?.read !== 'function' || !Number.isSafeInteger(reader.size) || reader.size < 0)
    throw invalid(
      'source must be a Uint8Array, { memory: "cuda", devicePtr, size } or { size, read(offset, into) }',
    );
  return hostEndpoint(reader.size, async (view, _mem, span) => reader.read(span.offset, view));
}

export function downloadEndpoint(dst: DownloadDestination): Endpoint {
  if (ArrayBuffer.isView(dst)) {
    const bytes = byteView(dst);
    return hostEndpoint(bytes.byteLength, (view, _mem, span) =>
      copyPart(bytes.subarray(span.offset, span.offset + view.length), view),
    );
  }
  if (isDevice(dst)) return deviceEndpoint('destination', dst, (device, at, n) => device.twinToDevice(at, n));
  const writer = dst as DestinationWriter;
  if (typeof writer?.write !== 'function' || !Number.isSafeInteger(writer.capacity) || writer.capacity < 0)
    throw invalid(
      'destination must be a Uint8Array, { memory: "cuda", devicePtr, size } or { capacity, write(offset, bytes) }',
    );
  return hostEndpoint(writer.capacity, async (view, _mem, span) => writer.write(span.offset, view));
}
