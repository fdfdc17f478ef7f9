/*
 * rdma_host_client_wrapper.h — the host-memory client ABI: the client side of a transfer. It
 * owns registered host memory and mints DC v1 tokens the gateway uses to reach that memory.
 *
 * softnic provider: create() starts an AGENT thread that listens on cfg.agent_addr (default
 * 127.0.0.1, port cfg.agent_port or ephemeral) and serves the gateway's READ/WRITE requests on
 * registered regions only, checking the DC key at connect and rkey + bounds on every request.
 * A WRITE is acknowledged only after the bytes are in memory. Tokens carry GID = IPv4-mapped
 * agent address, DCTN = agent port, rkey = registration key, field 1 = real virtual address.
 * verbs provider (built where rdma-core headers exist; rdma-core loaded at run time): one mlx5 DC
 * target (DCT) with the DC key, one MR per registration (remote read + write); tokens carry the
 * real DCT number, port LID, chosen GID and the MR's rkey. dev_name/port_num/gid_index/dc_key
 * select it; the VGWRDMA_RDMA_DEV / _RDMA_PORT / _GID_INDEX / _DC_KEY environment variables, when
 * set, win (as in vgwrdma). agent_port / set_direct_access answer -ENOTSUP. Verified only by
 * unit tests of its logic: no RDMA device on the machines this project is tested on.
 *
 * Ownership: the client owns its agent thread(s), sockets and every registration; destroy()
 * stops the agent (dropping gateway connections), deregisters and frees what it allocated.
 * Memory from rdma_host_client_alloc is page-aligned, zeroed, owned by the client until
 * rdma_host_client_free (or destroy); JS shows it with koffi.view(ptr, size).
 *
 * Threading: all functions are thread-safe. deregister/free wait until no gateway request is
 * using the region (bounded by the agent's io timeout), then the region is unreachable.
 * Concurrent transfers into one registration are allowed by the agent; keeping them disjoint is
 * the caller's job (as with the vendor library).
 *
 * Errors: NULL / negative errno + vgw_shim_last_error(), see vgw_shim_common.h.
 */
#ifndef RDMA_HOST_CLIENT_WRAPPER_H
#define RDMA_HOST_CLIENT_WRAPPER_H

#include "cuobj_token.h"
#include "vgw_shim_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RDMA_HOST_MAX_REGION ((4ull << 30) - (64ull << 10)) /* 4 GiB - 64 KiB per registration */

typedef struct rdma_host_client rdma_host_client_t; /* opaque */
typedef struct rdma_host_mr rdma_host_mr_t;         /* opaque registration handle */

/* Fill with rdma_host_client_config_default() then change fields. Strings are copied by create.
 * sizeof == 56; offsets: struct_size 0, provider 4, dev_name 8, agent_addr 16, dc_key 24,
 * port_num 32, gid_index 36, agent_port 40, allow_direct 44, io_timeout_ms 48, explicit_fields 52.
 *
 * The verbs provider also reads VGWRDMA_RDMA_DEV / _RDMA_PORT / _GID_INDEX / _DC_KEY (vgwrdma's
 * names). A variable fills only a field the caller left alone: one whose RDMA_HOST_CLIENT_SET_*
 * bit is clear in explicit_fields and whose value is still the default. A field set in code wins
 * (ABI 1.8; before, the environment won). */
#define RDMA_HOST_CLIENT_SET_DEV_NAME 0x1u  /* dev_name given (also when NULL = first device) */
#define RDMA_HOST_CLIENT_SET_PORT_NUM 0x2u  /* port_num given (also when 1) */
#define RDMA_HOST_CLIENT_SET_GID_INDEX 0x4u /* gid_index given (also when -1 = auto) */
#define RDMA_HOST_CLIENT_SET_DC_KEY 0x8u    /* dc_key given (also when 0xffeeddcc) */
typedef struct rdma_host_client_config {
  uint32_t struct_size;   /* = sizeof(rdma_host_client_config_t) */
  uint32_t provider;      /* vgw_provider_t: SOFTNIC (default) or VERBS */
  const char *dev_name;   /* verbs: RDMA device, e.g. "mlx5_0"; NULL = first (unused by softnic) */
  const char *agent_addr; /* softnic: IPv4 to listen on and advertise; NULL/"" = 127.0.0.1;
                             must be a concrete address (not 0.0.0.0) since it goes in tokens */
  uint64_t dc_key;        /* DC access key; the agent refuses gateways presenting another one.
                             default 0xffeeddcc */
  uint32_t port_num;      /* verbs: HCA port, default 1 */
  int32_t gid_index;      /* verbs: GID index, default -1 = automatic (non-link-local RoCE v2,
                             then IPv4-mapped v2, then v1; src/verbs/gid_select.h) */
  uint32_t agent_port;    /* softnic: TCP port, 0 = ephemeral (default) */
  uint32_t allow_direct;  /* softnic: 1 = publish a cookie so a same-host gateway may use
                             process_vm_readv/writev after proving access; 0 = TCP only */
  uint32_t io_timeout_ms; /* softnic: agent socket send/recv wait, default 10000 */
  uint32_t explicit_fields; /* RDMA_HOST_CLIENT_SET_* bits (was `reserved`, 0: the rule above still
                               treats a non-default value as set) */
} rdma_host_client_config_t;

VGW_API uint32_t rdma_host_client_abi_version(void); /* == VGW_SHIM_ABI_VERSION */
VGW_API void rdma_host_client_config_default(rdma_host_client_config_t *cfg);

/* NULL on failure: -ENODEV provider not built, -EADDRINUSE/-EADDRNOTAVAIL cannot listen,
 * -EINVAL bad config. cfg may be NULL (all defaults). */
VGW_API rdma_host_client_t *rdma_host_client_create(const rdma_host_client_config_t *cfg);
VGW_API void rdma_host_client_destroy(rdma_host_client_t *c);

/* softnic: the agent's bound port (host order), or a negative errno for other providers. */
VGW_API int rdma_host_client_agent_port(const rdma_host_client_t *c);
/* softnic: allow (1) or forbid (0) the same-host direct path, effective for the next transfer
 * (the agent refuses DIRECT_BEGIN and the gateway falls back to TCP on the same connection).
 * Returns 0 or a negative errno. */
VGW_API int rdma_host_client_set_direct_access(rdma_host_client_t *c, int allow);

/* Page-aligned zeroed memory owned by the client, size 1..RDMA_HOST_MAX_REGION. NULL on failure.
 * free: -EBUSY if still registered, -EINVAL if ptr did not come from alloc. */
VGW_API void *rdma_host_client_alloc(rdma_host_client_t *c, size_t size);
VGW_API int rdma_host_client_free(rdma_host_client_t *c, void *ptr);

/* Register [ptr, ptr+size), size 1..RDMA_HOST_MAX_REGION. ptr should come from alloc (any host
 * memory that outlives the registration works with softnic). NULL on failure. */
VGW_API rdma_host_mr_t *rdma_host_client_register(rdma_host_client_t *c, void *ptr, size_t size);
VGW_API int rdma_host_client_deregister(rdma_host_client_t *c, rdma_host_mr_t *mr);
VGW_API uint32_t rdma_host_mr_rkey(const rdma_host_mr_t *mr);
VGW_API void *rdma_host_mr_addr(const rdma_host_mr_t *mr);
VGW_API size_t rdma_host_mr_size(const rdma_host_mr_t *mr);

/* Mint a canonical 81-char token for [offset, offset+size) of mr. op: CUOBJ_OP_GET (size =
 * capacity the gateway may write) or CUOBJ_OP_PUT (size = payload it will read). size 1..
 * UINT32_MAX and offset+size <= region size, else -EINVAL; cap < 82 -> -ENOSPC.
 * Returns the length written (81). */
VGW_API int rdma_host_client_token(rdma_host_client_t *c, rdma_host_mr_t *mr, size_t offset, size_t size,
                                   uint32_t op, char *out, size_t cap);

/* ---- Since ABI 1.9: progress gates (softnic) — overlap filling memory with the transfer ----
 *
 * A registration's gate lets the client hand the gateway a token before the bytes are all
 * there (upload) or use bytes before the whole transfer ended (download). The agent enforces
 * it, so it works on the TCP path and the same-host direct path alike (the gateway copies only
 * after the agent acknowledged the range) and with any gateway; the token is unchanged.
 *   UPLOAD:   arm, hand out the PUT token, publish "bytes ready from offset 0" as they become
 *             ready (in order). A gateway READ of [o, o+len) is answered only once the word is
 *             >= o+len (relative to the registration's start). No advance for stall_timeout_ms:
 *             the READ is refused (-ETIME: the gateway's request fails naming the stall); FAILED
 *             refuses waiting and later READs at once (-ENODATA); so does a word that went
 *             backwards or past the size (written through progress_word).
 *   DOWNLOAD: arm, hand out the GET token; the agent raises the word to the length landed
 *             contiguously from offset 0 after each completed WRITE; read it with
 *             rdma_host_client_progress. The word may lag (a range written ahead of a gap is
 *             counted when the gap fills, up to 32 such ranges): after the reply, every byte of
 *             the object has landed whatever the word says.
 *   OFF:      no gate (every registration starts so): no wait, no cost.
 * One transfer at a time per registration: arming again starts afresh (word 0). The verbs and
 * cuobj providers: -ENOTSUP (the NIC reaches the memory without the agent). stall_timeout_ms 0
 * keeps the previous value (default 5000); keep it below the gateway's io timeout (default
 * 10000) so the gateway reports the stall rather than a silent agent. */
#define RDMA_HOST_PROGRESS_OFF 0u
#define RDMA_HOST_PROGRESS_UPLOAD 1u
#define RDMA_HOST_PROGRESS_DOWNLOAD 2u
#define RDMA_HOST_PROGRESS_FAILED 3u
VGW_API int rdma_host_client_progress_arm(rdma_host_client_t *c, rdma_host_mr_t *mr, uint32_t mode,
                                          uint32_t stall_timeout_ms);
/* Raises the word to `bytes` (never lowers it); -ERANGE past the registration's size. */
VGW_API int rdma_host_client_progress_publish(rdma_host_client_t *c, rdma_host_mr_t *mr, uint64_t bytes);
/* The word now (>= 0), or a negative errno. */
VGW_API int64_t rdma_host_client_progress(rdma_host_client_t *c, rdma_host_mr_t *mr);
/* Bytes of gateway READs the agent served from mr since the last arm (how far an upload got). */
VGW_API int64_t rdma_host_client_progress_served(rdma_host_client_t *c, rdma_host_mr_t *mr);
/* The word itself (8-byte aligned, valid until deregister), for callers that store to it from
 * their own code; NULL + last error as above. Stores must only raise it, up to the size. */
VGW_API uint64_t *rdma_host_client_progress_word(rdma_host_client_t *c, rdma_host_mr_t *mr);

#ifdef __cplusplus
}
#endif
#endif
