/*
 * cuda_ctx.h — internal: a GPU client's CUDA state. Which runtime and device it uses, the
 * device memory it allocated (freed on destroy), the staging parameters for new registrations,
 * and the checks and copies the client ABI exposes. The runtime is loaded on first use, so a
 * client that never touches CUDA memory never looks for libcudart.
 */
#ifndef VGW_CUDA_CTX_H
#define VGW_CUDA_CTX_H

#include <stddef.h>

#include "cuda_api.h"
#include "staging.h"

typedef struct vgw_cuda_ctx vgw_cuda_ctx_t;

vgw_cuda_ctx_t *vgw_cuda_ctx_new(void);
/* Frees device memory still allocated through the context. */
void vgw_cuda_ctx_free(vgw_cuda_ctx_t *x);

/* Loads `library` (NULL: VGWRDMA_CUDA_LIB / defaults) and selects `device`: 0 or -ENODEV with a
 * message ("no CUDA runtime: ...", "no CUDA device: ...", "device 3 of 1"). */
int vgw_cuda_ctx_configure(vgw_cuda_ctx_t *x, const char *library, int device);
/* The runtime, configuring the defaults on first use; NULL + last error when unavailable. */
const vgw_cuda_api_t *vgw_cuda_ctx_api(vgw_cuda_ctx_t *x);
int vgw_cuda_ctx_set_staging(vgw_cuda_ctx_t *x, size_t chunk_bytes, unsigned streams);

void *vgw_cuda_ctx_alloc(vgw_cuda_ctx_t *x, size_t size);
/* 1 when ptr is device memory allocated through this context (and not yet freed). */
int vgw_cuda_ctx_owns(vgw_cuda_ctx_t *x, const void *ptr);
/* 0 when ptr was allocated here (now freed), 1 when it was not ours, or a negative errno. */
int vgw_cuda_ctx_free_ptr(vgw_cuda_ctx_t *x, void *ptr);
/* Device memory check for a registration: sets *device; -EINVAL when ptr is not device memory. */
int vgw_cuda_ctx_check_device_ptr(vgw_cuda_ctx_t *x, const void *ptr, int *device);
/* A staging twin for [dev, dev+size) on `device`, with the context's parameters. */
vgw_staging_t *vgw_cuda_ctx_staging(vgw_cuda_ctx_t *x, int device, void *dev, void *host, size_t size);

/* Plain synchronous copies and fills, for callers and tests (not the transfer path). */
int vgw_cuda_ctx_memcpy(vgw_cuda_ctx_t *x, void *dst, const void *src, size_t n, int kind);
int vgw_cuda_ctx_memset(vgw_cuda_ctx_t *x, void *dev, int value, size_t n);
/* "NVIDIA H200 (device 0 of 1), runtime 13000, driver 13000, libcudart.so"; length or -errno. */
int vgw_cuda_ctx_describe(vgw_cuda_ctx_t *x, char *out, size_t cap);

#endif
