// koffi declarations of the structs that cross the C ABI, field for field as in
// native-shims/include/*.h. The tests hold each one to the C compiler's layout through
// vgw_shim_layout_sizeof/offsetof, so a header change that is not mirrored here fails loudly.

import { koffi } from '@vgwrdma/native';

/** cuobj_token.h: a parsed token (56 bytes on LP64). */
export const CuobjToken = koffi.struct('cuobj_token_t', {
  addr: 'uint64_t',
  size: 'uint32_t',
  rkey: 'uint32_t',
  lid: 'uint16_t',
  gid_present: 'uint8_t',
  has_override: 'uint8_t',
  dctn: 'uint32_t',
  gid: koffi.array('uint8_t', 16, 'Typed'),
  override_addr: 'uint64_t',
  override_size: 'uint64_t',
});

/** The JS shape koffi decodes a cuobj_token_t into (64-bit fields may come back as number). */
export interface CuobjTokenStruct {
  addr: bigint | number;
  size: number;
  rkey: number;
  lid: number;
  gid_present: number;
  has_override: number;
  dctn: number;
  gid: Uint8Array;
  override_addr: bigint | number;
  override_size: bigint | number;
}

/** cuobjserver_wrapper.h: flat tunables (88 bytes). */
export const CuobjRdmaTunables = koffi.struct('cuobj_rdma_tunables_t', {
  struct_size: 'uint32_t',
  provider: 'uint32_t',
  num_dcis: 'uint32_t',
  cq_depth: 'uint32_t',
  dc_key: 'uint64_t',
  service_level: 'uint32_t',
  timeout: 'uint32_t',
  hop_limit: 'uint32_t',
  pkey_index: 'uint32_t',
  max_sge: 'uint32_t',
  delay_interval: 'uint32_t',
  delay_mode: 'uint32_t',
  qp_reset_on_failure: 'uint32_t',
  retry_cnt: 'uint32_t',
  traffic_class: 'uint32_t',
  max_rd_atomic: 'uint32_t',
  io_timeout_ms: 'uint32_t',
  connect_timeout_ms: 'uint32_t',
  frame_size: 'uint32_t',
  allow_direct: 'uint32_t',
  direct_privileged: 'uint32_t',
});

/** JS shape of cuobj_rdma_tunables_t. */
export interface CuobjRdmaTunablesStruct {
  struct_size: number;
  provider: number;
  num_dcis: number;
  cq_depth: number;
  dc_key: bigint | number;
  service_level: number;
  timeout: number;
  hop_limit: number;
  pkey_index: number;
  max_sge: number;
  delay_interval: number;
  delay_mode: number;
  qp_reset_on_failure: number;
  retry_cnt: number;
  traffic_class: number;
  max_rd_atomic: number;
  io_timeout_ms: number;
  connect_timeout_ms: number;
  frame_size: number;
  allow_direct: number;
  direct_privileged: number;
}

/** cuobjserver_wrapper.h: one completion of a submit (16 bytes). Decoded by hand from a Buffer. */
export const CuobjAsyncEvent = koffi.struct('cuobj_async_event_t', {
  user_tag: 'uint64_t',
  status: 'int64_t',
});

/** Bytes of cuobj_async_event_ex_t.message (CUOBJ_ASYNC_MESSAGE_LEN). */
export const ASYNC_MESSAGE_LEN = 240;

/**
 * cuobjserver_wrapper.h (ABI 1.7): a completion with the failure's text (256 bytes). Decoded by
 * hand from a Buffer, like cuobj_async_event_t.
 */
export const CuobjAsyncEventEx = koffi.struct('cuobj_async_event_ex_t', {
  user_tag: 'uint64_t',
  status: 'int64_t',
  message: koffi.array('char', ASYNC_MESSAGE_LEN, 'Array'),
});

/** cuobjserver_wrapper.h: transport counters of a server (64 bytes). */
export const CuobjServerStats = koffi.struct('cuobj_server_stats_t', {
  direct_transfers: 'uint64_t',
  tcp_transfers: 'uint64_t',
  direct_bytes: 'uint64_t',
  tcp_bytes: 'uint64_t',
  connects: 'uint64_t',
  proofs_ok: 'uint64_t',
  proofs_failed: 'uint64_t',
  failed_transfers: 'uint64_t',
});

/** JS shape of cuobj_server_stats_t (koffi gives number or BigInt per value). */
export type CuobjServerStatsStruct = Record<
  | 'direct_transfers'
  | 'tcp_transfers'
  | 'direct_bytes'
  | 'tcp_bytes'
  | 'connects'
  | 'proofs_ok'
  | 'proofs_failed'
  | 'failed_transfers',
  number | bigint
>;

/** rdma_host_client_wrapper.h: client config (56 bytes). Strings are copied by create. */
export const RdmaHostClientConfig = koffi.struct('rdma_host_client_config_t', {
  struct_size: 'uint32_t',
  provider: 'uint32_t',
  dev_name: 'const char *',
  agent_addr: 'const char *',
  dc_key: 'uint64_t',
  port_num: 'uint32_t',
  gid_index: 'int32_t',
  agent_port: 'uint32_t',
  allow_direct: 'uint32_t',
  io_timeout_ms: 'uint32_t',
  explicit_fields: 'uint32_t',
});

/** JS shape of rdma_host_client_config_t. */
export interface RdmaHostClientConfigStruct {
  struct_size: number;
  provider: number;
  dev_name: string | null;
  agent_addr: string | null;
  dc_key: bigint | number;
  port_num: number;
  gid_index: number;
  agent_port: number;
  allow_direct: number;
  io_timeout_ms: number;
  /** RDMA_HOST_CLIENT_SET_* bits: the fields set in code, which the environment never overrides. */
  explicit_fields: number;
}

/** Every struct, by its C name, for the layout tests. */
export const ABI_STRUCTS = {
  cuobj_token_t: CuobjToken,
  cuobj_rdma_tunables_t: CuobjRdmaTunables,
  cuobj_async_event_t: CuobjAsyncEvent,
  cuobj_async_event_ex_t: CuobjAsyncEventEx,
  cuobj_server_stats_t: CuobjServerStats,
  rdma_host_client_config_t: RdmaHostClientConfig,
} as const;
