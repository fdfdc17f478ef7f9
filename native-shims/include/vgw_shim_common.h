/*
 * vgw_shim_common.h — what every vgwrdma shim library shares: the ABI version, the provider
 * choice, the per-thread "last error" detail, the struct layout query used by the koffi tests,
 * and the memcpy / process_vm_writev ceiling probes used by the softnic benchmark.
 *
 * All shim APIs live in ONE shared library, libvgwrdma_shims.so (built into
 * native-shims/build/<platform>-<arch>/). The three public headers (cuobjserver_wrapper.h,
 * rdma_host_client_wrapper.h, cuobjclient_wrapper.h) include this one and cuobj_token.h.
 *
 * Error contract (every header): functions returning int / ssize_t return >= 0 on success and a
 * NEGATIVE errno on failure (-EINVAL, -EIO, -ENODEV, -ENOMEM, -EPROTO, -EBUSY, -ETIMEDOUT,
 * -EACCES, -ERANGE, -ENOTSUP, ...). Functions returning a pointer return NULL on failure; the
 * negative errno and a human-readable message are then available from vgw_shim_last_error() on
 * the SAME thread (the detail is thread-local and overwritten by the next failing call on that
 * thread). Negative-errno returns also set the detail where a message helps.
 */
#ifndef VGW_SHIM_COMMON_H
#define VGW_SHIM_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(VGW_SHIM_BUILDING)
#define VGW_API __attribute__((visibility("default")))
#else
#define VGW_API
#endif

/* ABI version = major << 16 | minor. Major changes only on a breaking change (never planned);
 * minor grows with each additive change (see native-shims/ABI-CHANGES.md). A loader must refuse
 * a different major and may require minor >= the one it was written for. */
#define VGW_SHIM_ABI_MAJOR 1u
#define VGW_SHIM_ABI_MINOR 10u
#define VGW_SHIM_ABI_VERSION ((VGW_SHIM_ABI_MAJOR << 16) | VGW_SHIM_ABI_MINOR)

VGW_API uint32_t vgw_shim_abi_version(void);

/* Transport providers. softnic is always built. verbs is compiled in where rdma-core headers
 * existed at build time and loads rdma-core (dlopen) when a verbs client is created. cuobj is a
 * separate plugin, libvgwrdma_cuobj.so (built only with CUOBJ_HOME), loaded from this library's
 * directory (or $VGWRDMA_PROVIDER_DIR) on first use. Selecting one that cannot be used fails
 * with -ENODEV and one sentence naming what is missing (e.g. "... libcuobjserver.so ..."). */
typedef enum vgw_provider {
  VGW_PROVIDER_SOFTNIC = 0, /* software NIC: TCP agent + same-host process_vm_* path */
  VGW_PROVIDER_CUOBJ = 1,   /* NVIDIA libcuobjserver/libcuobjclient (DC) */
  VGW_PROVIDER_VERBS = 2    /* libibverbs + mlx5dv DC target (host-memory client only) */
} vgw_provider_t;

/* 1 if the provider can be used by this library (cuobj: its plugin and NVIDIA library load —
 * the first call tries), 0 if not (then vgw_shim_last_error gives -ENODEV and the sentence why),
 * -EINVAL for an unknown id. */
VGW_API int vgw_shim_provider_built(uint32_t provider);
/* Static name ("softnic", "cuobj", "verbs") or NULL for an unknown id. Not to be freed. */
VGW_API const char *vgw_shim_provider_name(uint32_t provider);
/* Provider id for a name, or -EINVAL. */
VGW_API int vgw_shim_provider_from_name(const char *name);

/* Last failure on the calling thread: returns its negative errno (0 if none yet) and copies a
 * NUL-terminated message into msg (truncated to cap; msg may be NULL when cap is 0). */
VGW_API int vgw_shim_last_error(char *msg, size_t cap);

/* Layout query for binding tests. type names: "cuobj_token_t", "cuobj_rdma_tunables_t",
 * "cuobj_async_event_t", "cuobj_server_stats_t", "rdma_host_client_config_t". Unknown type or
 * field -> SIZE_MAX. */
VGW_API size_t vgw_shim_layout_sizeof(const char *type_name);
VGW_API size_t vgw_shim_layout_offsetof(const char *type_name, const char *field_name);

/* Ceiling probes for the softnic benchmark (blocking; call them off the event loop or accept the
 * stall — they are benchmarks). Each moves `bytes` once per iteration after one warm-up pass and
 * returns the median GB/s (1e9 bytes/s) over `iterations`, or a negative errno.
 * - memcpy: one thread, warm page-aligned buffers.
 * - process_vm_writev: into a forked child that holds the (pre-faulted) destination; the child
 *   is killed and reaped before return. Same-host softnic direct transfers use this syscall. */
VGW_API double vgw_shim_bench_memcpy_gbps(size_t bytes, uint32_t iterations);
VGW_API double vgw_shim_bench_process_vm_writev_gbps(size_t bytes, uint32_t iterations);
VGW_API double vgw_shim_bench_process_vm_readv_gbps(size_t bytes, uint32_t iterations);

#ifdef __cplusplus
}
#endif
#endif
