/*
 * cuobjclient_wrapper.h — the GPU-capable client ABI (shape of NVIDIA cuObjClient's token-only
 * path: register memory once, mint a token per request). Same operations as the host client
 * plus a memory kind. Only host (SYSTEM) memory works in this build: CUDA memory kinds fail with
 * -ENOTSUP and the message "CUDA memory needs the cuobj provider, not built here".
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

/* Library-allocated memory of a kind. SYSTEM: page-aligned zeroed host memory. CUDA kinds:
 * NULL with -ENOTSUP. free: as rdma_host_client_free. */
VGW_API void *cuobj_client_alloc(cuobj_client_t *c, size_t size, uint32_t mem_kind);
VGW_API int cuobj_client_free(cuobj_client_t *c, void *ptr);

/* Register caller memory of a kind (cuMemObjGetDescriptor). SYSTEM works; CUDA kinds -> NULL,
 * -ENOTSUP. deregister = cuMemObjPutDescriptor. */
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

#ifdef __cplusplus
}
#endif
#endif
