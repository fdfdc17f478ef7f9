/*
 * cuobjclient_wrapper.h — the GPU-capable client ABI (shape of NVIDIA cuObjClient's token-only
 * path: register memory once, mint a token per request). Same operations as the host client
 * plus a memory kind.
 *
 * Memory kinds over softnic (since ABI 1.3):
 * - SYSTEM: host memory, served as it is.
 * - CUDA_DEVICE: device memory, reached the way NVIDIA GDS does in compatibility mode — each
 *   registration gets a host twin of the same size (pinned with cudaHostRegister where the
 *   runtime allows), the transport serves the twin, and the caller moves the bytes between the
 *   two with cuobj_client_stage_to_host() BEFORE an upload (PUT token) and
 *   cuobj_client_stage_to_device() AFTER a download (GET token) completed. Tokens name the twin;
 *   the registration's address (cuobj_client_mr_addr) is the device pointer.
 *   The CUDA runtime is loaded at run time (dlopen: $VGWRDMA_CUDA_LIB, else libcudart.so,
 *   .so.13, .so.12) on the first CUDA call: the library has no link-time CUDA dependency. No
 *   runtime or no device: -ENODEV, "no CUDA runtime: ..." / "no CUDA device: ...". CUDA errors
 *   map to errnos (-ENOMEM out of device memory, -EFAULT bad device pointer, -ENODEV, -EINVAL,
 *   -EIO otherwise) with the runtime's error name and text in the message.
 * - CUDA_MANAGED: -ENOTSUP (managed memory is not staged).
 *
 * Ownership, threading and errors: exactly as rdma_host_client_wrapper.h (the softnic provider
 * runs the same agent). The config struct is rdma_host_client_config_t.
 */
#ifndef CUOBJCLIENT_WRAPPER_H
#define CUOBJCLIENT_WRAPPER_H

#include "cuobj_token.h"
#include "rdma_host_client_wrapper.h"
#include "vgw_shim_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cuObjMemoryType_t values */
#define CUOBJ_MEMORY_SYSTEM 0u
#define CUOBJ_MEMORY_CUDA_MANAGED 1u
#define CUOBJ_MEMORY_CUDA_DEVICE 2u

typedef struct cuobj_client cuobj_client_t; /* opaque */
typedef struct cuobj_client_mr cuobj_client_mr_t;

VGW_API uint32_t cuobj_client_abi_version(void); /* == VGW_SHIM_ABI_VERSION */
VGW_API cuobj_client_t *cuobj_client_create(const rdma_host_client_config_t *cfg);
VGW_API void cuobj_client_destroy(cuobj_client_t *c);
VGW_API int cuobj_client_agent_port(const cuobj_client_t *c);
VGW_API int cuobj_client_set_direct_access(cuobj_client_t *c, int allow);

/* Library-allocated memory of a kind. SYSTEM: page-aligned zeroed host memory. CUDA_DEVICE:
 * cudaMalloc on the client's device (not zeroed). CUDA_MANAGED: NULL, -ENOTSUP. free: either
 * kind; -EINVAL if ptr did not come from alloc, -EBUSY while registered. */
VGW_API void *cuobj_client_alloc(cuobj_client_t *c, size_t size, uint32_t mem_kind);
VGW_API int cuobj_client_free(cuobj_client_t *c, void *ptr);

/* Register caller memory of a kind (cuMemObjGetDescriptor). CUDA_DEVICE: ptr must be device
 * memory (cudaPointerGetAttributes; else -EINVAL), from alloc or the caller's own cudaMalloc, on
 * any device; its host twin is allocated and registered here. deregister = cuMemObjPutDescriptor
 * (frees the twin). */
VGW_API cuobj_client_mr_t *cuobj_client_register(cuobj_client_t *c, void *ptr, size_t size, uint32_t mem_kind);
VGW_API int cuobj_client_deregister(cuobj_client_t *c, cuobj_client_mr_t *mr);
VGW_API uint32_t cuobj_client_mr_memory_kind(const cuobj_client_mr_t *mr);
/* Since ABI 1.2: the registration's rkey / address / size (0 / NULL / 0 for NULL). */
VGW_API uint32_t cuobj_client_mr_rkey(const cuobj_client_mr_t *mr);
VGW_API void *cuobj_client_mr_addr(const cuobj_client_mr_t *mr);
VGW_API size_t cuobj_client_mr_size(const cuobj_client_mr_t *mr);

/* cuMemObjGetRDMAToken into a caller buffer; same contract as rdma_host_client_token. */
VGW_API int cuobj_client_token(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t offset, size_t size,
                               uint32_t op, char *out, size_t cap);

/* ---- Since ABI 1.3: CUDA device memory over softnic (staging; see the top of this file) ---- */

/* Loads the CUDA runtime (library NULL: $VGWRDMA_CUDA_LIB, else the default names) and selects
 * the device for later CUDA_DEVICE allocations. Optional: the first CUDA call does
 * (NULL, 0). 0, or -ENODEV "no CUDA runtime/device", -EINVAL device < 0, -EBUSY when the client
 * already holds memory from another runtime. */
VGW_API int cuobj_client_cuda_configure(cuobj_client_t *c, const char *library, int device);
/* Staging of registrations made from now on: copies split into chunk_bytes pieces (0 = split
 * evenly; else >= 64 KiB) issued round-robin on `streams` CUDA streams (1..8). Default 0 / 1. */
VGW_API int cuobj_client_cuda_set_staging(cuobj_client_t *c, size_t chunk_bytes, uint32_t streams);
/* One line: "<device name> (device D of N), runtime R, driver V, <library>"; length or -errno. */
VGW_API int cuobj_client_cuda_describe(cuobj_client_t *c, char *out, size_t cap);

/* Device -> host twin for [offset, offset+size) of mr: call before the gateway reads (upload).
 * Host twin -> device: call after the gateway wrote (download). Blocking (run off the event
 * loop); one staging copy at a time per registration. SYSTEM registrations: 0, nothing to do.
 * 0 or a negative errno (-EINVAL range outside the registration, CUDA errors as above). */
VGW_API int cuobj_client_stage_to_host(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t offset, size_t size);
VGW_API int cuobj_client_stage_to_device(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t offset, size_t size);
/* The last failed stage on mr (its negative errno, 0 if none) and its message: the detail
 * vgw_shim_last_error() keeps only on the thread that ran the stage (a koffi .async pool
 * thread). */
VGW_API int cuobj_client_mr_last_stage_error(cuobj_client_t *c, const cuobj_client_mr_t *mr, char *msg, size_t cap);
/* mr's host twin (what the transport serves; `size` bytes, page-aligned, owned by the client
 * until deregister), or NULL for SYSTEM memory. Callers may read it after stage_to_host (e.g. a
 * checksum over the bytes an upload sends) and fill it before stage_to_device (e.g. an HTTP
 * fallback body). */
VGW_API void *cuobj_client_mr_staging_addr(const cuobj_client_mr_t *mr);
/* 1 when mr's host twin is pinned, 0 when pageable or mr is SYSTEM memory, -EINVAL for NULL. */
VGW_API int cuobj_client_mr_staging_pinned(const cuobj_client_mr_t *mr);

/* Plain synchronous copies between caller host memory and device memory, and a device fill
 * (cudaMemcpy / cudaMemset) — for filling and checking device memory, not the transfer path. */
#define CUOBJ_CUDA_HOST_TO_DEVICE 1u
#define CUOBJ_CUDA_DEVICE_TO_HOST 2u
VGW_API int cuobj_client_cuda_memcpy(cuobj_client_t *c, void *dst, const void *src, size_t size,
                                     uint32_t direction);
VGW_API int cuobj_client_cuda_memset(cuobj_client_t *c, void *dev, int value, size_t size);

/* ---- Since ABI 1.9: staging overlapped with the transfer (softnic progress gates) ----
 * The gate of mr's host twin (SYSTEM: of the memory itself); semantics as
 * rdma_host_client_progress_* (rdma_host_client_wrapper.h). Upload: arm UPLOAD, send the PUT
 * with its token and run stage_to_host_overlapped concurrently (off the event loop): device →
 * twin in `chunk` pieces from offset 0 (0 = 8 MiB, else >= 64 KiB), publishing the word after
 * each, so the gateway reads chunk i while chunk i+1 is copied; on failure the gate goes FAILED
 * (the gateway's waiting READs fail at once). Download: arm DOWNLOAD, start
 * stage_to_device_overlapped (it copies each chunk as the landed word passes it), send the GET;
 * when the reply came publish `size` (everything landed), or arm FAILED on an error (the copy
 * then returns -ECANCELED). -ETIME: the word did not move for the stall timeout. SYSTEM
 * memory: the upload publishes `size`, the download returns 0 at once. -ENOTSUP off softnic. */
VGW_API int cuobj_client_progress_arm(cuobj_client_t *c, cuobj_client_mr_t *mr, uint32_t mode,
                                      uint32_t stall_timeout_ms);
VGW_API int cuobj_client_progress_publish(cuobj_client_t *c, cuobj_client_mr_t *mr, uint64_t bytes);
VGW_API int64_t cuobj_client_progress(cuobj_client_t *c, cuobj_client_mr_t *mr);
VGW_API int64_t cuobj_client_progress_served(cuobj_client_t *c, cuobj_client_mr_t *mr);
VGW_API uint64_t *cuobj_client_progress_word(cuobj_client_t *c, cuobj_client_mr_t *mr);
VGW_API int cuobj_client_stage_to_host_overlapped(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t size,
                                                  size_t chunk);
VGW_API int cuobj_client_stage_to_device_overlapped(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t size,
                                                    size_t chunk);

#ifdef __cplusplus
}
#endif
#endif
