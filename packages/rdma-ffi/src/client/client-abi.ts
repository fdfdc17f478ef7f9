// The two client flavours of the shim ABI — rdma_host_client_* (host memory) and
// cuobj_client_* (cuObjClient's shape, with a memory kind) — as one table of operations, so
// HostClient and GpuClient share every line of lifecycle, registration and token code.

import type { RdmaHostClientConfigStruct } from '../native/layouts.js';
import type { Ptr, ShimLibrary } from '../native/shim-library.js';

/** Memory kinds (cuObjMemoryType_t). Only 'system' works without the cuobj provider. */
export type MemoryKind = 'system' | 'cuda-managed' | 'cuda-device';
export const MEMORY_KIND_ID: Readonly<Record<MemoryKind, number>> = {
  system: 0,
  'cuda-managed': 1,
  'cuda-device': 2,
};

export interface ClientAbi {
  readonly name: string;
  create(cfg: RdmaHostClientConfigStruct): Ptr;
  destroy(c: Ptr): void;
  agentPort(c: Ptr): number;
  setDirect(c: Ptr, allow: boolean): number;
  alloc(c: Ptr, size: number, kind: MemoryKind): Ptr;
  free(c: Ptr, address: bigint): number;
  register(c: Ptr, address: bigint, size: number, kind: MemoryKind): Ptr;
  deregister(c: Ptr, mr: Ptr): number;
  token(c: Ptr, mr: Ptr, offset: number, size: number, op: number, out: Buffer, cap: number): number;
  /** The registration's rkey when the ABI can tell it directly. */
  rkey(mr: Ptr): number | undefined;
  /** ABI 1.9: the registration's progress gate. */
  progressArm(c: Ptr, mr: Ptr, mode: number, stallMs: number): number;
  progressPublish(c: Ptr, mr: Ptr, bytes: number): number;
  progress(c: Ptr, mr: Ptr): number;
  progressServed(c: Ptr, mr: Ptr): number;
  progressWord(c: Ptr, mr: Ptr): Ptr;
}

export function hostClientAbi(lib: ShimLibrary): ClientAbi {
  const f = lib.fn;
  return {
    name: 'HostClient',
    create: (cfg) => f.rdma_host_client_create(cfg),
    destroy: (c) => f.rdma_host_client_destroy(c),
    agentPort: (c) => f.rdma_host_client_agent_port(c),
    setDirect: (c, allow) => f.rdma_host_client_set_direct_access(c, allow ? 1 : 0),
    alloc: (c, size) => f.rdma_host_client_alloc(c, size),
    free: (c, p) => f.rdma_host_client_free(c, p),
    register: (c, p, size) => f.rdma_host_client_register(c, p, size),
    deregister: (c, mr) => f.rdma_host_client_deregister(c, mr),
    token: (c, mr, off, size, op, out, cap) => f.rdma_host_client_token(c, mr, off, size, op, out, cap),
    rkey: (mr) => f.rdma_host_mr_rkey(mr) >>> 0,
    progressArm: (c, mr, mode, ms) => f.rdma_host_client_progress_arm(c, mr, mode, ms),
    progressPublish: (c, mr, bytes) => f.rdma_host_client_progress_publish(c, mr, bytes),
    progress: (c, mr) => Number(f.rdma_host_client_progress(c, mr)),
    progressServed: (c, mr) => Number(f.rdma_host_client_progress_served(c, mr)),
    progressWord: (c, mr) => f.rdma_host_client_progress_word(c, mr),
  };
}

export function cuobjClientAbi(lib: ShimLibrary): ClientAbi {
  const f = lib.fn;
  return {
    name: 'GpuClient',
    create: (cfg) => f.cuobj_client_create(cfg),
    destroy: (c) => f.cuobj_client_destroy(c),
    agentPort: (c) => f.cuobj_client_agent_port(c),
    setDirect: (c, allow) => f.cuobj_client_set_direct_access(c, allow ? 1 : 0),
    alloc: (c, size, kind) => f.cuobj_client_alloc(c, size, MEMORY_KIND_ID[kind]),
    free: (c, p) => f.cuobj_client_free(c, p),
    register: (c, p, size, kind) => f.cuobj_client_register(c, p, size, MEMORY_KIND_ID[kind]),
    deregister: (c, mr) => f.cuobj_client_deregister(c, mr),
    token: (c, mr, off, size, op, out, cap) => f.cuobj_client_token(c, mr, off, size, op, out, cap),
    rkey: () => undefined,
    progressArm: (c, mr, mode, ms) => f.cuobj_client_progress_arm(c, mr, mode, ms),
    progressPublish: (c, mr, bytes) => f.cuobj_client_progress_publish(c, mr, bytes),
    progress: (c, mr) => Number(f.cuobj_client_progress(c, mr)),
    progressServed: (c, mr) => Number(f.cuobj_client_progress_served(c, mr)),
    progressWord: (c, mr) => f.cuobj_client_progress_word(c, mr),
  };
}
