/*
 * cuobjserver_wrapper.h — the gateway-side transfer ABI, in the shape of NVIDIA's cuObjServer
 * (NVIDIA's cuObject API) so the softnic and vendor providers are interchangeable behind it.
 *
 * handle_get = RDMA WRITE into the client's memory (serves an S3 GET).
 * handle_put = RDMA READ from the client's memory (serves an S3 PUT).
 *
 * Ownership: the server owns its buffers' registrations, channels, worker threads, cached agent
 * connections and the completion eventfd; cuobj_server_destroy releases all of them: it joins
 * the channel workers, so submitted transfers finish (or time out) first and their completions
 * are discarded. Do not call destroy while synchronous handle_* calls still run on other
 * threads. Host buffers from alloc_host_buffer belong to the caller until free_host_buffer.
 *
 * Threading: all functions are thread-safe. A CHANNEL carries one transfer at a time: a second
 * transfer (sync or async) on a busy channel fails with -EBUSY instead of queueing. Transfers on
 * different channels run in parallel (each channel has its own native worker thread for submits;
 * the sync calls run on the caller's thread). The sync handle_* calls block for the whole
 * transfer — never call them on the Node event loop thread; use submit_* + completion_fd.
 *
 * Errors: negative errno (see vgw_shim_common.h). Transfer errors:
 *   -EINVAL  bad argument: NULL, size 0, size > 1 GiB, local window outside the registered
 *            buffer, remote window outside the token's (override-applied) window, bad channel
 *   -EPROTONOSUPPORT  RC-style token;  -EAFNOSUPPORT  token GID is not IPv4-mapped (softnic)
 *   -ENODEV  agent unreachable (connect refused) or provider not built
 *   -EACCES  DC key or rkey refused by the agent;  -ERANGE  agent refused the bounds
 *   -ETIMEDOUT  connect or socket I/O timed out (dead peer never hangs a call)
 *   -EIO     connection lost / peer died mid-transfer;  -EPROTO  malformed frame from the peer
 *   -EBUSY   channel busy;  -ENOMEM  allocation failed
 * After any transfer error the channel is free again and reusable.
 */
#ifndef CUOBJSERVER_WRAPPER_H
#define CUOBJSERVER_WRAPPER_H

#include <sys/types.h>
#include "cuobj_token.h"
#include "vgw_shim_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUOBJ_PROTO_RDMA_DC_V1 1001u
#define CUOBJ_CHANNEL_NONE 65535u               /* allocate_channel: none free */
#define CUOBJ_MAX_TRANSFER (1ull << 30)         /* at most 1 GiB per handle/submit call */

typedef struct cuobj_server cuobj_server_t;           /* opaque */
typedef struct cuobj_rdma_buffer cuobj_rdma_buffer_t; /* opaque registration handle */

/* Flat tunables. Fill with cuobj_server_tunables_default() then change fields. sizeof == 88.
 * offsets: struct_size 0, provider 4, num_dcis 8, cq_depth 12, dc_key 16, service_level 24,
 * timeout 28, hop_limit 32, pkey_index 36, max_sge 40, delay_interval 44, delay_mode 48,
 * qp_reset_on_failure 52, retry_cnt 56, traffic_class 60, max_rd_atomic 64, io_timeout_ms 68,
 * connect_timeout_ms 72, frame_size 76, allow_direct 80, direct_privileged 84. */
typedef struct cuobj_rdma_tunables {
  uint32_t struct_size;         /* = sizeof(cuobj_rdma_tunables_t); older/smaller sizes accepted */
  uint32_t provider;            /* vgw_provider_t; default VGW_PROVIDER_SOFTNIC */
  uint32_t num_dcis;            /* 128: number of channels (1..65534) */
  uint32_t cq_depth;            /* 640 (vendor only) */
  uint64_t dc_key;              /* 0xffeeddcc: softnic proves it to the agent at connect (never sent) */
  uint32_t service_level;       /* 0   (vendor only) */
  uint32_t timeout;             /* 16  (vendor only) */
  uint32_t hop_limit;           /* 4   (vendor only) */
  uint32_t pkey_index;          /* 0   (vendor only) */
  uint32_t max_sge;             /* 10  (vendor only) */
  uint32_t delay_interval;      /* 5000 ns (vendor only) */
  uint32_t delay_mode;          /* 1   (vendor only) */
  uint32_t qp_reset_on_failure; /* 1   (vendor only) */
  uint32_t retry_cnt;           /* 7   (vendor only) */
  uint32_t traffic_class;       /* 96  (vendor only) */
  uint32_t max_rd_atomic;       /* 0 = auto (vendor only) */
  uint32_t io_timeout_ms;       /* softnic: per socket send/recv wait, default 10000 */
  uint32_t connect_timeout_ms;  /* softnic: connect + handshake, default 3000 */
  uint32_t frame_size;          /* softnic: TCP data frame payload, default 4 MiB (4 KiB..64 MiB) */
  uint32_t allow_direct;        /* softnic: 1 = use process_vm_* when the agent proves same host */
  uint32_t direct_privileged;   /* softnic, 0 (ABI 1.5; was `reserved`): 1 = allow the direct path
                                   even when this process is more privileged than the client (euid 0
                                   or CAP_SYS_PTRACE, client uid != our euid). A client whose
                                   credentials change (setuid/setgid exec) or that is not dumpable
                                   is refused regardless. */
} cuobj_rdma_tunables_t;

/* Completion of a submit_*: user_tag as given, status = bytes moved or a negative errno.
 * sizeof == 16; offsets user_tag 0, status 8. */
typedef struct cuobj_async_event {
  uint64_t user_tag;
  int64_t status;
} cuobj_async_event_t;

/* ABI 1.7: a completion with the failure's text — what the worker that ran the transfer recorded
 * with its last error (the same text vgw_shim_last_error gives for a sync failure). message is
 * NUL-terminated: "" on success, or when the failure left no text. sizeof == 256; offsets
 * user_tag 0, status 8, message 16. */
#define CUOBJ_ASYNC_MESSAGE_LEN 240u
typedef struct cuobj_async_event_ex {
  uint64_t user_tag;
  int64_t status;
  char message[CUOBJ_ASYNC_MESSAGE_LEN];
} cuobj_async_event_ex_t;

/* Transport counters of a server (monotonic since create). sizeof == 64, each field 8 bytes at
 * offsets 0, 8, ... 56 in the order below. */
typedef struct cuobj_server_stats {
  uint64_t direct_transfers; /* softnic same-host process_vm_* transfers that succeeded */
  uint64_t tcp_transfers;    /* softnic TCP transfers that succeeded */
  uint64_t direct_bytes;
  uint64_t tcp_bytes;
  uint64_t connects;         /* agent connections opened */
  uint64_t proofs_ok;        /* cookie proofs accepted (connection uses the direct path) */
  uint64_t proofs_failed;    /* direct path offered but not proven (EPERM, other pid namespace) */
  uint64_t failed_transfers; /* transfers that returned a negative errno after validation */
} cuobj_server_stats_t;

VGW_API uint32_t cuobj_server_abi_version(void); /* == VGW_SHIM_ABI_VERSION */
VGW_API void cuobj_server_tunables_default(cuobj_rdma_tunables_t *t);

/* ip/port: the local address outgoing softnic connections bind to ("" / NULL / "0.0.0.0" = any;
 * port is ignored by softnic). proto must be CUOBJ_PROTO_RDMA_DC_V1. NULL on failure (see
 * vgw_shim_last_error: -ENODEV "provider not built", -EINVAL bad tunables, -ENOMEM). */
VGW_API cuobj_server_t *cuobj_server_create(const char *ip, uint16_t port, uint32_t proto);
VGW_API cuobj_server_t *cuobj_server_create_with_config(const char *ip, uint16_t port, uint32_t proto,
                                                        const cuobj_rdma_tunables_t *tunables);
VGW_API void cuobj_server_destroy(cuobj_server_t *srv);
VGW_API int cuobj_server_is_connected(const cuobj_server_t *srv); /* 1 when usable */
VGW_API uint32_t cuobj_server_provider(const cuobj_server_t *srv);

/* Page-aligned host memory (zeroed). Free with cuobj_server_free_host_buffer. NULL on failure. */
VGW_API void *cuobj_server_alloc_host_buffer(cuobj_server_t *srv, size_t size);
VGW_API void cuobj_server_free_host_buffer(cuobj_server_t *srv, void *ptr);

/* Register [ptr, ptr+size) as a transfer buffer. The memory must stay valid until deregistered.
 * Deregister fails with -EBUSY while a transfer uses the buffer. */
VGW_API cuobj_rdma_buffer_t *cuobj_server_register_buffer(cuobj_server_t *srv, void *ptr, size_t size);
VGW_API int cuobj_server_deregister_buffer(cuobj_server_t *srv, cuobj_rdma_buffer_t *buf);

/* Lowest free channel id in [0, num_dcis), or CUOBJ_CHANNEL_NONE. free returns -EBUSY while a
 * transfer runs on it, -EINVAL for an id that is not allocated. */
VGW_API uint16_t cuobj_server_allocate_channel(cuobj_server_t *srv);
VGW_API int cuobj_server_free_channel(cuobj_server_t *srv, uint16_t channel);

/* ABI 1.6. Aborts the transfer running on an allocated channel, if any (softnic: its agent socket
 * is shut down, so a send/recv blocked on a slow agent returns at once): that transfer completes
 * soon with -ECANCELED (or its result, when it had already finished), and only then is the
 * channel free and its buffer no longer written. A channel with nothing running: no effect; the
 * next transfer is not affected. Any thread. 0; -EINVAL (not allocated); -EOPNOTSUPP (cuobj
 * provider: the vendor library has no abort). */
VGW_API int cuobj_server_cancel_channel(cuobj_server_t *srv, uint16_t channel);

/* Synchronous transfers (block the calling thread). key: ignored (may be NULL; the shim writes no
 * logs, and a failure's text is in vgw_shim_last_error / the completion's message).
 * Local side: buf + local_offset (the _ex forms) or buf + 0. Remote side: remote_buf_start must
 * lie in the token's window [addr, addr+size) (override applied) together with size.
 * Returns bytes moved (== size) or a negative errno. A short transfer is always an error. */
VGW_API ssize_t cuobj_server_handle_get(cuobj_server_t *srv, const char *key, cuobj_rdma_buffer_t *buf,
                                        uint64_t remote_buf_start, size_t size, const char *descr,
                                        uint16_t channel);
VGW_API ssize_t cuobj_server_handle_put(cuobj_server_t *srv, const char *key, cuobj_rdma_buffer_t *buf,
                                        uint64_t remote_buf_start, size_t size, const char *descr,
                                        uint16_t channel);
VGW_API ssize_t cuobj_server_handle_get_ex(cuobj_server_t *srv, const char *key, cuobj_rdma_buffer_t *buf,
                                           uint64_t local_offset, uint64_t remote_buf_start, size_t size,
                                           const char *descr, uint16_t channel);
VGW_API ssize_t cuobj_server_handle_put_ex(cuobj_server_t *srv, const char *key, cuobj_rdma_buffer_t *buf,
                                           uint64_t local_offset, uint64_t remote_buf_start, size_t size,
                                           const char *descr, uint16_t channel);

/* Asynchronous transfers: validated and queued on the channel's native worker thread. Returns 0
 * when accepted (exactly one completion with user_tag will follow) or a negative errno (no
 * completion follows). key is ignored; descr is parsed here; buf must stay registered until
 * completion. */
VGW_API int cuobj_server_submit_get(cuobj_server_t *srv, const char *key, cuobj_rdma_buffer_t *buf,
                                    uint64_t local_offset, uint64_t remote_buf_start, size_t size,
                                    const char *descr, uint16_t channel, uint64_t user_tag);
VGW_API int cuobj_server_submit_put(cuobj_server_t *srv, const char *key, cuobj_rdma_buffer_t *buf,
                                    uint64_t local_offset, uint64_t remote_buf_start, size_t size,
                                    const char *descr, uint16_t channel, uint64_t user_tag);

/* ABI 1.7: the same submits, given the client's window as the fields of an already-parsed token
 * instead of its string: the gateway parses a token once, at the HTTP edge, and nothing below
 * parses it again. token is what cuobj_token_parse fills (has_override 1: a non-zero override_addr
 * / override_size replaces addr / size); its fields are checked (size > 0, dctn within 24 bits,
 * gid_present and has_override 0 or 1: else -EINVAL), then the transfer is validated as above.
 * The cuobj provider formats the canonical descriptor string for the vendor call from the fields.
 * No key argument: the shim writes no logs (the string forms ignore theirs). token is copied. */
VGW_API int cuobj_server_submit_get_fields(cuobj_server_t *srv, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                                           uint64_t remote_buf_start, size_t size, const cuobj_token_t *token,
                                           uint16_t channel, uint64_t user_tag);
VGW_API int cuobj_server_submit_put_fields(cuobj_server_t *srv, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                                           uint64_t remote_buf_start, size_t size, const cuobj_token_t *token,
                                           uint16_t channel, uint64_t user_tag);

/* An eventfd (non-blocking) owned by the server — do NOT close or read it yourself. It is
 * readable whenever at least one completion is queued. Watch it (koffi.node.poll), then call
 * poll_completions until it returns fewer than max_events. */
VGW_API int cuobj_server_completion_fd(cuobj_server_t *srv);
/* Non-blocking: moves up to max_events queued completions into events, returns the count (0 if
 * none) or a negative errno. Re-arms the eventfd when completions remain. */
VGW_API int cuobj_server_poll_completions(cuobj_server_t *srv, cuobj_async_event_t *events, int max_events);
/* ABI 1.7: the same, with each failure's text (cuobj_async_event_ex_t). */
VGW_API int cuobj_server_poll_completions_ex(cuobj_server_t *srv, cuobj_async_event_ex_t *events, int max_events);

/* Copy the counters; 0 or -EINVAL. */
VGW_API int cuobj_server_get_stats(const cuobj_server_t *srv, cuobj_server_stats_t *out);
/* ABI 1.5: proven direct-path connections the gateway switched back to TCP because the client
 * process was no longer the one proven (exec, credential change, exit: SOFTNIC.md). Monotonic. */
VGW_API uint64_t cuobj_server_direct_revoked(const cuobj_server_t *srv);

/* Telemetry setters of the vendor ABI; softnic accepts and ignores them (returns 0). */
VGW_API int cuobj_server_set_telemetry_flags(uint32_t flags);

#ifdef __cplusplus
}
#endif
#endif
