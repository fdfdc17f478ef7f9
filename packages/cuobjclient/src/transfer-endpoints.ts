// What a managed transfer reads from and writes to, made uniform: the memory kind its pooled
// sessions need, its size (or capacity), and how one part's bytes get into a session's
// registered memory (upload) or out of it (download). GPU memory the caller owns is copied
// straight between its device address and the session's pinned host twin on the libuv pool
// (rdma-ffi DeviceMemory.twinFromDevice / twinToDevice): one copy per part, no registration of
// the caller's memory, and with several parts in flight the copies of one part overlap the
// transfers of the others.

import { CuObjError } from './errors.js';
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

export interface Endpoint {
  readonly memory: SessionMemory;
  /** Upload: object size. Download: capacity. */
  readonly size: number;
}

function invalid(message: string): CuObjError {
  return new CuObjError('VGW_ERR_CUOBJ_INVALID_OPTION', message);
}

function isDevice(x: unknown): x is DeviceMemoryRef {
  return (x as DeviceMemoryRef | undefined)?.memory === 'cuda';
}

function checkDevice(what: string, d: DeviceMemoryRef): void {
  if (typeof d.devicePtr !== 'bigint' || d.devicePtr <= 0n)
    throw invalid(`${what}.devicePtr must be a non-zero BigInt device address`);
  if (!Number.isSafeInteger(d.size) || d.size < 0) throw invalid(`${what}.size must be a byte count`);
}

function deviceOf(mem: SessionBuffer) {
  if (mem.device === undefined) throw new CuObjError('VGW_ERR_CUOBJ_WRONG_MEMORY', 'expected a CUDA session');
  return mem.device;
}

export function uploadEndpoint(src: UploadSource): Endpoint & { readonly fill: FillPart } {
  if (ArrayBuffer.isView(src)) {
    const bytes = src as Uint8Array;
    return {
      memory: 'host',
      size: bytes.byteLength,
      fill: async (view, _mem, span) => view.set(bytes.subarray(span.offset, span.offset + span.length)),
    };
  }
  if (isDevice(src)) {
    checkDevice('source', src);
    return {
      memory: 'cuda',
      size: src.size,
      fill: (_view, mem, span) =>
        deviceOf(mem).twinFromDevice(src.devicePtr + BigInt(span.offset), span.length),
    };
  }
  const reader = src as SourceReader;
  if (typeof reader?.read !== 'function' || !Number.isSafeInteger(reader.size) || reader.size < 0)
    throw invalid(
      'source must be a Uint8Array, { memory: "cuda", devicePtr, size } or { size, read(offset, into) }',
    );
  return {
    memory: 'host',
    size: reader.size,
    fill: async (view, _mem, span) => reader.read(span.offset, view),
  };
}

export function downloadEndpoint(dst: DownloadDestination): Endpoint & { readonly deliver: DeliverPart } {
  if (ArrayBuffer.isView(dst)) {
    const bytes = dst as Uint8Array;
    return {
      memory: 'host',
      size: bytes.byteLength,
      deliver: async (view, _mem, span) => bytes.set(view, span.offset),
    };
  }
  if (isDevice(dst)) {
    checkDevice('destination', dst);
    return {
      memory: 'cuda',
      size: dst.size,
      deliver: (_view, mem, span) =>
        deviceOf(mem).twinToDevice(dst.devicePtr + BigInt(span.offset), span.length),
    };
  }
  const writer = dst as DestinationWriter;
  if (typeof writer?.write !== 'function' || !Number.isSafeInteger(writer.capacity) || writer.capacity < 0)
    throw invalid(
      'destination must be a Uint8Array, { memory: "cuda", devicePtr, size } or { capacity, write(offset, bytes) }',
    );
  return {
    memory: 'host',
    size: writer.capacity,
    deliver: async (view, _mem, span) => writer.write(span.offset, view),
  };
}
