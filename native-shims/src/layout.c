/*
 * layout.c — sizeof/offsetof of every struct that crosses the ABI, so the koffi bindings can
 * assert their struct definitions against what the compiler really laid out.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuobj_token.h"
#include "cuobjserver_wrapper.h"
#include "rdma_host_client_wrapper.h"

typedef struct field_row {
  const char *type;
  const char *field; /* NULL row = the type's sizeof */
  size_t value;
} field_row_t;

#define SIZE_ROW(T) {#T, NULL, sizeof(T)}
#define FIELD_ROW(T, F) {#T, #F, offsetof(T, F)}

static const field_row_t k_layout[] = {
    SIZE_ROW(cuobj_token_t),
    FIELD_ROW(cuobj_token_t, addr),
    FIELD_ROW(cuobj_token_t, size),
    FIELD_ROW(cuobj_token_t, rkey),
    FIELD_ROW(cuobj_token_t, lid),
    FIELD_ROW(cuobj_token_t, gid_present),
    FIELD_ROW(cuobj_token_t, has_override),
    FIELD_ROW(cuobj_token_t, dctn),
    FIELD_ROW(cuobj_token_t, gid),
    FIELD_ROW(cuobj_token_t, override_addr),
    FIELD_ROW(cuobj_token_t, override_size),

    SIZE_ROW(cuobj_rdma_tunables_t),
    FIELD_ROW(cuobj_rdma_tunables_t, struct_size),
    FIELD_ROW(cuobj_rdma_tunables_t, provider),
    FIELD_ROW(cuobj_rdma_tunables_t, num_dcis),
    FIELD_ROW(cuobj_rdma_tunables_t, cq_depth),
    FIELD_ROW(cuobj_rdma_tunables_t, dc_key),
    FIELD_ROW(cuobj_rdma_tunables_t, service_level),
    FIELD_ROW(cuobj_rdma_tunables_t, timeout),
    FIELD_ROW(cuobj_rdma_tunables_t, hop_limit),
    FIELD_ROW(cuobj_rdma_tunables_t, pkey_index),
    FIELD_ROW(cuobj_rdma_tunables_t, max_sge),
    FIELD_ROW(cuobj_rdma_tunables_t, delay_interval),
    FIELD_ROW(cuobj_rdma_tunables_t, delay_mode),
    FIELD_ROW(cuobj_rdma_tunables_t, qp_reset_on_failure),
    FIELD_ROW(cuobj_rdma_tunables_t, retry_cnt),
    FIELD_ROW(cuobj_rdma_tunables_t, traffic_class),
    FIELD_ROW(cuobj_rdma_tunables_t, max_rd_atomic),
    FIELD_ROW(cuobj_rdma_tunables_t, io_timeout_ms),
    FIELD_ROW(cuobj_rdma_tunables_t, connect_timeout_ms),
    FIELD_ROW(cuobj_rdma_tunables_t, frame_size),
    FIELD_ROW(cuobj_rdma_tunables_t, allow_direct),
    FIELD_ROW(cuobj_rdma_tunables_t, direct_privileged),

    SIZE_ROW(cuobj_async_event_t),
    FIELD_ROW(cuobj_async_event_t, user_tag),
    FIELD_ROW(cuobj_async_event_t, status),

    SIZE_ROW(cuobj_async_event_ex_t),
    FIELD_ROW(cuobj_async_event_ex_t, user_tag),
    FIELD_ROW(cuobj_async_event_ex_t, status),
    FIELD_ROW(cuobj_async_event_ex_t, message),

    SIZE_ROW(cuobj_server_stats_t),
    FIELD_ROW(cuobj_server_stats_t, direct_transfers),
    FIELD_ROW(cuobj_server_stats_t, tcp_transfers),
    FIELD_ROW(cuobj_server_stats_t, direct_bytes),
    FIELD_ROW(cuobj_server_stats_t, tcp_bytes),
    FIELD_ROW(cuobj_server_stats_t, connects),
    FIELD_ROW(cuobj_server_stats_t, proofs_ok),
    FIELD_ROW(cuobj_server_stats_t, proofs_failed),
    FIELD_ROW(cuobj_server_stats_t, failed_transfers),

    SIZE_ROW(rdma_host_client_config_t),
    FIELD_ROW(rdma_host_client_config_t, struct_size),
    FIELD_ROW(rdma_host_client_config_t, provider),
    FIELD_ROW(rdma_host_client_config_t, dev_name),
    FIELD_ROW(rdma_host_client_config_t, agent_addr),
    FIELD_ROW(rdma_host_client_config_t, dc_key),
    FIELD_ROW(rdma_host_client_config_t, port_num),
    FIELD_ROW(rdma_host_client_config_t, gid_index),
    FIELD_ROW(rdma_host_client_config_t, agent_port),
    FIELD_ROW(rdma_host_client_config_t, allow_direct),
    FIELD_ROW(rdma_host_client_config_t, io_timeout_ms),
    FIELD_ROW(rdma_host_client_config_t, explicit_fields),
};
#define N_LAYOUT (sizeof k_layout / sizeof k_layout[0])

static size_t lookup(const char *type, const char *field) {
  if (type == NULL) return SIZE_MAX;
  for (size_t i = 0; i < N_LAYOUT; i++) {
    const field_row_t *r = &k_layout[i];
    if (strcmp(r->type, type) != 0) continue;
    if (field == NULL ? r->field == NULL : (r->field != NULL && strcmp(r->field, field) == 0)) return r->value;
  }
  return SIZE_MAX;
}

size_t vgw_shim_layout_sizeof(const char *type_name) { return lookup(type_name, NULL); }

size_t vgw_shim_layout_offsetof(const char *type_name, const char *field_name) {
  return field_name == NULL ? SIZE_MAX : lookup(type_name, field_name);
}
