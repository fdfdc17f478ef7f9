// The transfer functions of libvgwrdma_shims (one library holds the server, host-client,
// cuobj-client and token ABIs; vgw_shim_common.h), declared with koffi on the library that
// @vgwrdma/native found, loaded and ABI-checked. Pointers come back as BigInt (0n = NULL);
// ssize_t is declared int64_t (LP64 Linux only). One bound instance per loaded library, shared by
// every class in this package.

import {
  type LoadNativeOptions,
  loadNativeLibrary,
  type NativeLibrary,
  type ShimSource,
} from '@vgwrdma/native';
import {
  CuobjRdmaTunables,
  type CuobjRdmaTunablesStruct,
  CuobjServerStats,
  type CuobjServerStatsStruct,
  CuobjToken,
  type CuobjTokenStruct,
  RdmaHostClientConfig,
  type RdmaHostClientConfigStruct,
} from './layouts.js';

/** A native pointer: BigInt address, 0n for NULL (koffi's `null` is normalised at binding). */
export type Ptr = bigint;
type Int64 = number | bigint;

/** Raw functions of the library, typed. Only this package's classes call them. */
export interface ShimFunctions {
  vgw_shim_abi_version(): number;
  vgw_shim_provider_built(provider: number): number;
  vgw_shim_provider_name(provider: number): string | null;
  vgw_shim_last_error(msg: Buffer | null, cap: number): number;
  vgw_shim_layout_sizeof(type: string): Int64;
  vgw_shim_layout_offsetof(type: string, field: string): Int64;
  vgw_shim_bench_memcpy_gbps(bytes: number, iterations: number): number;
  vgw_shim_bench_process_vm_writev_gbps(bytes: number, iterations: number): number;
  vgw_shim_bench_process_vm_readv_gbps(bytes: number, iterations: number): number;

  cuobj_token_parse(s: string, out: Partial<CuobjTokenStruct>): number;
  cuobj_token_classify(s: string): number;
  cuobj_token_format(t: CuobjTokenStruct, out: Buffer, cap: number): number;

  cuobj_server_tunables_default(out: Partial<CuobjRdmaTunablesStruct>): void;
  cuobj_server_create_with_config(
    ip: string | null,
    port: number,
    proto: number,
    t: CuobjRdmaTunablesStruct,
  ): Ptr;
  cuobj_server_destroy(srv: Ptr): void;
  cuobj_server_is_connected(srv: Ptr): number;
  cuobj_server_provider(srv: Ptr): number;
  cuobj_server_alloc_host_buffer(srv: Ptr, size: number): Ptr;
  cuobj_server_free_host_buffer(srv: Ptr, ptr: Ptr): void;
  cuobj_server_register_buffer(srv: Ptr, ptr: Ptr, size: number): Ptr;
  cuobj_server_deregister_buffer(srv: Ptr, buf: Ptr): number;
  cuobj_server_allocate_channel(srv: Ptr): number;
  cuobj_server_free_channel(srv: Ptr, channel: number): number;
  // ABI 1.6: abort the transfer running on a channel (the gateway's transfer deadline)
  cuobj_server_cancel_channel(srv: Ptr, channel: number): number;
  // ABI 1.7: submits take the parsed token's fields; completions carry the failure's text
  cuobj_server_submit_get_fields: SubmitFieldsFn;
  cuobj_server_submit_put_fields: SubmitFieldsFn;
  cuobj_server_completion_fd(srv: Ptr): number;
  cuobj_server_poll_completions_ex(srv: Ptr, events: Buffer, max: number): number;
  cuobj_server_get_stats(srv: Ptr, out: Partial<CuobjServerStatsStruct>): number;
  cuobj_server_direct_revoked(srv: Ptr): bigint | number;
  cuobj_server_set_telemetry_flags(flags: number): number;

  rdma_host_client_config_default(out: Partial<RdmaHostClientConfigStruct>): void;
  rdma_host_client_create(cfg: RdmaHostClientConfigStruct): Ptr;
  rdma_host_client_destroy(c: Ptr): void;
  rdma_host_client_agent_port(c: Ptr): number;
  rdma_host_client_set_direct_access(c: Ptr, allow: number): number;
  rdma_host_client_alloc(c: Ptr, size: number): Ptr;
  rdma_host_client_free(c: Ptr, ptr: Ptr): number;
  rdma_host_client_register(c: Ptr, ptr: Ptr, size: number): Ptr;
  rdma_host_client_deregister(c: Ptr, mr: Ptr): number;
  rdma_host_mr_rkey(mr: Ptr): number;
  rdma_host_client_token: TokenFn;
  // ABI 1.9: progress gates (overlap filling memory with the transfer; softnic)
  rdma_host_client_progress_arm(c: Ptr, mr: Ptr, mode: number, stallMs: number): number;
  rdma_host_client_progress_publish(c: Ptr, mr: Ptr, bytes: number): number;
  rdma_host_client_progress(c: Ptr, mr: Ptr): Int64;
  rdma_host_client_progress_served(c: Ptr, mr: Ptr): Int64;
  rdma_host_client_progress_word(c: Ptr, mr: Ptr): Ptr;

  cuobj_client_create(cfg: RdmaHostClientConfigStruct): Ptr;
  cuobj_client_destroy(c: Ptr): void;
  cuobj_client_agent_port(c: Ptr): number;
  cuobj_client_set_direct_access(c: Ptr, allow: number): number;
  cuobj_client_alloc(c: Ptr, size: number, kind: number): Ptr;
  cuobj_client_free(c: Ptr, ptr: Ptr): number;
  cuobj_client_register(c: Ptr, ptr: Ptr, size: number, kind: number): Ptr;
  cuobj_client_deregister(c: Ptr, mr: Ptr): number;
  cuobj_client_mr_memory_kind(mr: Ptr): number;
  cuobj_client_token: TokenFn;
  // ABI 1.3: CUDA device memory (staging over softnic)
  cuobj_client_cuda_configure(c: Ptr, library: string | null, device: number): number;
  cuobj_client_cuda_set_staging(c: Ptr, chunkBytes: number, streams: number): number;
  cuobj_client_cuda_describe(c: Ptr, out: Buffer, cap: number): number;
  cuobj_client_stage_to_host: StageFn;
  cuobj_client_stage_to_device: StageFn;
  cuobj_client_mr_last_stage_error(c: Ptr, mr: Ptr, msg: Buffer, cap: number): number;
  cuobj_client_mr_staging_pinned(mr: Ptr): number;
  cuobj_client_mr_staging_addr(mr: Ptr): Ptr;
  cuobj_client_cuda_memcpy: MemcpyFn;
  cuobj_client_cuda_memset(c: Ptr, dev: Ptr, value: number, size: number): number;
  // ABI 1.9: staging overlapped with the transfer
  cuobj_client_progress_arm(c: Ptr, mr: Ptr, mode: number, stallMs: number): number;
  cuobj_client_progress_publish(c: Ptr, mr: Ptr, bytes: number): number;
  cuobj_client_progress(c: Ptr, mr: Ptr): Int64;
  cuobj_client_progress_served(c: Ptr, mr: Ptr): Int64;
  cuobj_client_progress_word(c: Ptr, mr: Ptr): Ptr;
  cuobj_client_stage_to_host_overlapped: StageFn;
  cuobj_client_stage_to_device_overlapped: StageFn;
}

/** Mints the token for `size` bytes at `offset` of a registration into `out`: the length written, or -errno. */
type TokenFn = (
  c: Ptr,
  mr: Ptr,
  offset: number,
  size: number,
  op: number,
  out: Buffer,
  cap: number,
) => number;

/** A blocking stage call, also callable on the libuv pool with koffi's `.async`. */
export type StageFn = ((c: Ptr, mr: Ptr, offset: number, size: number) => number) & {
  async(c: Ptr, mr: Ptr, offset: number, size: number, done: (err: unknown, result: number) => void): void;
};

/** cudaMemcpy between a device address and host bytes; `.async` runs it on the libuv pool. */
export type MemcpyFn = ((
  c: Ptr,
  dst: Ptr | Uint8Array,
  src: Ptr | Uint8Array,
  size: number,
  dir: number,
) => number) & {
  async(
    c: Ptr,
    dst: Ptr | Uint8Array,
    src: Ptr | Uint8Array,
    size: number,
    dir: number,
    done: (err: unknown, result: number) => void,
  ): void;
};

type SubmitFieldsFn = (
  srv: Ptr,
  buf: Ptr,
  localOffset: number,
  remoteBufStart: bigint,
  size: number,
  token: CuobjTokenStruct,
  channel: number,
  userTag: number,
) => number;

// C prototypes, one per line; opaque handles are plain `void *` (BigInt on the JS side).
const PROTOTYPES: readonly string[] = [
  'uint32_t vgw_shim_abi_version(void)',
  'int vgw_shim_provider_built(uint32_t provider)',
  'const char *vgw_shim_provider_name(uint32_t provider)',
  'int vgw_shim_last_error(void *msg, size_t cap)',
  'size_t vgw_shim_layout_sizeof(const char *type_name)',
  'size_t vgw_shim_layout_offsetof(const char *type_name, const char *field_name)',
  'double vgw_shim_bench_memcpy_gbps(size_t bytes, uint32_t iterations)',
  'double vgw_shim_bench_process_vm_writev_gbps(size_t bytes, uint32_t iterations)',
  'double vgw_shim_bench_process_vm_readv_gbps(size_t bytes, uint32_t iterations)',

  'int cuobj_token_parse(const char *s, _Out_ cuobj_token_t *out)',
  'int cuobj_token_classify(const char *s)',
  'int cuobj_token_format(const cuobj_token_t *t, void *out, size_t cap)',

  'void cuobj_server_tunables_default(_Out_ cuobj_rdma_tunables_t *t)',
  'void *cuobj_server_create_with_config(const char *ip, uint16_t port, uint32_t proto, const cuobj_rdma_tunables_t *t)',
  'void cuobj_server_destroy(void *srv)',
  'int cuobj_server_is_connected(void *srv)',
  'uint32_t cuobj_server_provider(void *srv)',
  'void *cuobj_server_alloc_host_buffer(void *srv, size_t size)',
  'void cuobj_server_free_host_buffer(void *srv, void *ptr)',
  'void *cuobj_server_register_buffer(void *srv, void *ptr, size_t size)',
  'int cuobj_server_deregister_buffer(void *srv, void *buf)',
  'uint16_t cuobj_server_allocate_channel(void *srv)',
  'int cuobj_server_free_channel(void *srv, uint16_t channel)',
  'int cuobj_server_cancel_channel(void *srv, uint16_t channel)',
  'int cuobj_server_submit_get_fields(void *srv, void *buf, uint64_t local_offset, uint64_t remote_buf_start, size_t size, const cuobj_token_t *token, uint16_t channel, uint64_t user_tag)',
  'int cuobj_server_submit_put_fields(void *srv, void *buf, uint64_t local_offset, uint64_t remote_buf_start, size_t size, const cuobj_token_t *token, uint16_t channel, uint64_t user_tag)',
  'int cuobj_server_completion_fd(void *srv)',
  'int cuobj_server_poll_completions_ex(void *srv, void *events, int max_events)',
  'int cuobj_server_get_stats(void *srv, _Out_ cuobj_server_stats_t *out)',
  'uint64_t cuobj_server_direct_revoked(void *srv)',
  'int cuobj_server_set_telemetry_flags(uint32_t flags)',

  'void rdma_host_client_config_default(_Out_ rdma_host_client_config_t *cfg)',
  'void *rdma_host_client_create(const rdma_host_client_config_t *cfg)',
  'void rdma_host_client_destroy(void *c)',
  'int rdma_host_client_agent_port(void *c)',
  'int rdma_host_client_set_direct_access(void *c, int allow)',
  'void *rdma_host_client_alloc(void *c, size_t size)',
  'int rdma_host_client_free(void *c, void *ptr)',
  'void *rdma_host_client_register(void *c, void *ptr, size_t size)',
  'int rdma_host_client_deregister(void *c, void *mr)',
  'uint32_t rdma_host_mr_rkey(void *mr)',
  'int rdma_host_client_token(void *c, void *mr, size_t offset, size_t size, uint32_t op, void *out, size_t cap)',
  'int rdma_host_client_progress_arm(void *c, void *mr, uint32_t mode, uint32_t stall_timeout_ms)',
  'int rdma_host_client_progress_publish(void *c, void *mr, uint64_t bytes)',
  'int64_t rdma_host_client_progress(void *c, void *mr)',
  'int64_t rdma_host_client_progress_served(void *c, void *mr)',
  'void *rdma_host_client_progress_word(void *c, void *mr)',

  'void *cuobj_client_create(const rdma_host_client_config_t *cfg)',
  'void cuobj_client_destroy(void *c)',
  'int cuobj_client_agent_port(void *c)',
  'int cuobj_client_set_direct_access(void *c, int allow)',
  'void *cuobj_client_alloc(void *c, size_t size, uint32_t mem_kind)',
  'int cuobj_client_free(void *c, void *ptr)',
  'void *cuobj_client_register(void *c, void *ptr, size_t size, uint32_t mem_kind)',
  'int cuobj_client_deregister(void *c, void *mr)',
  'uint32_t cuobj_client_mr_memory_kind(void *mr)',
  'int cuobj_client_token(void *c, void *mr, size_t offset, size_t size, uint32_t op, void *out, size_t cap)',

  'int cuobj_client_cuda_configure(void *c, const char *library, int device)',
  'int cuobj_client_cuda_set_staging(void *c, size_t chunk_bytes, uint32_t streams)',
  'int cuobj_client_cuda_describe(void *c, void *out, size_t cap)',
  'int cuobj_client_stage_to_host(void *c, void *mr, size_t offset, size_t size)',
  'int cuobj_client_stage_to_device(void *c, void *mr, size_t offset, size_t size)',
  'int cuobj_client_mr_last_stage_error(void *c, void *mr, void *msg, size_t cap)',
  'int cuobj_client_mr_staging_pinned(void *mr)',
  'void *cuobj_client_mr_staging_addr(void *mr)',
  'int cuobj_client_cuda_memcpy(void *c, void *dst, void *src, size_t size, uint32_t direction)',
  'int cuobj_client_cuda_memset(void *c, void *dev, int value, size_t size)',
  'int cuobj_client_progress_arm(void *c, void *mr, uint32_t mode, uint32_t stall_timeout_ms)',
  'int cuobj_client_progress_publish(void *c, void *mr, uint64_t bytes)',
  'int64_t cuobj_client_progress(void *c, void *mr)',
  'int64_t cuobj_client_progress_served(void *c, void *mr)',
  'void *cuobj_client_progress_word(void *c, void *mr)',
  'int cuobj_client_stage_to_host_overlapped(void *c, void *mr, size_t size, size_t chunk)',
  'int cuobj_client_stage_to_device_overlapped(void *c, void *mr, size_t size, size_t chunk)',
];

/** A loaded, version-checked shim library. */
export interface ShimLibrary {
  readonly path: string;
  readonly source: ShimSource;
  /** major << 16 | minor, as the library reports it. */
  readonly abiVersion: number;
  readonly fn: ShimFunctions;
  /** The calling thread's last native error: negative errno and message. */
  lastError(): { errno: number; message: string };
}

export type LoadShimOptions = Pick<LoadNativeOptions, 'shimDir'>;

// Referenced so koffi registers the struct names used in PROTOTYPES before parsing them.
void [CuobjToken, CuobjRdmaTunables, CuobjServerStats, RdmaHostClientConfig];

const bound = new WeakMap<NativeLibrary, ShimLibrary>();

/** Loads (through @vgwrdma/native) and binds the shim library. Throws NativeLoadError. */
export function loadShimLibrary(options: LoadShimOptions = {}): ShimLibrary {
  const native = loadNativeLibrary({ shimDir: options.shimDir });
  const cached = bound.get(native);
  if (cached) return cached;
  const lib: ShimLibrary = {
    path: native.path,
    source: native.source,
    abiVersion: native.abiVersion,
    fn: native.bind<ShimFunctions>(PROTOTYPES),
    lastError: () => native.lastError(),
  };
  bound.set(native, lib);
  return lib;
}
