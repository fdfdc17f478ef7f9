/*
 * cuda_api.h — internal: the CUDA runtime functions the GPU client uses, as one table of
 * function pointers. The loader (cudart_loader.c) fills it from libcudart with dlopen/dlsym at
 * run time, so the shim library has no link-time CUDA dependency and loads on machines without
 * CUDA. Tests plug in a fake device (host memory behind non-CPU-addressable handles) either as
 * a fake libcudart named by VGWRDMA_CUDA_LIB, or as a table set with vgw_cuda_set_test_api().
 *
 * Every entry has the CUDA runtime's own signature and returns a cudaError_t (0 = success);
 * streams are opaque pointers (cudaStream_t). The table is immutable once loaded and shared by
 * every client in the process.
 */
#ifndef VGW_CUDA_API_H
#define VGW_CUDA_API_H

#include <stddef.h>

/* cudaMemcpyKind values used here */
#define VGW_CUDA_H2D 1
#define VGW_CUDA_D2H 2
/* cudaMemoryType values (cudaPointerAttributes.type, CUDA 11+) */
#define VGW_CUDA_MEM_DEVICE 2
#define VGW_CUDA_MEM_MANAGED 3
/* cudaStreamNonBlocking */
#define VGW_CUDA_STREAM_NON_BLOCKING 1u
/* cudaErrorNoDevice: also what the loader reports for a runtime with zero devices */
#define VGW_CUDA_ERR_NO_DEVICE 100

/* struct cudaPointerAttributes (CUDA 11+): type, device, devicePointer, hostPointer. Padded so
 * a later runtime that appends fields cannot write past it. */
typedef struct vgw_cuda_ptr_attrs {
  int type;
  int device;
  void *device_pointer;
  void *host_pointer;
  char reserved[64];
} vgw_cuda_ptr_attrs_t;

typedef struct vgw_cuda_api {
  char origin[200]; /* the library it came from ("fake ..." for test tables) */
  int (*runtime_get_version)(int *v);
  int (*driver_get_version)(int *v); /* optional: NULL when absent */
  int (*get_device_count)(int *n);
  int (*set_device)(int dev);
  int (*malloc_device)(void **p, size_t n); /* cudaMalloc */
  int (*free_device)(void *p);              /* cudaFree */
  int (*host_register)(void *p, size_t n, unsigned flags);
  int (*host_unregister)(void *p);
  int (*stream_create)(void **s, unsigned flags); /* cudaStreamCreateWithFlags */
  int (*stream_destroy)(void *s);
  int (*stream_synchronize)(void *s);
  int (*memcpy_async)(void *dst, const void *src, size_t n, int kind, void *stream);
  int (*memcpy_sync)(void *dst, const void *src, size_t n, int kind); /* cudaMemcpy */
  int (*memset_device)(void *p, int value, size_t n);                 /* cudaMemset */
  int (*pointer_attributes)(vgw_cuda_ptr_attrs_t *a, const void *p);
  int (*get_last_error)(void);
  const char *(*error_name)(int err);
  const char *(*error_string)(int err);
  int (*device_properties)(void *prop, int dev); /* optional; prop starts with char name[256] */
} vgw_cuda_api_t;

/*
 * The CUDA runtime: `library` if not NULL, else $VGWRDMA_CUDA_LIB, else the first of
 * libcudart.so, libcudart.so.13, libcudart.so.12 that dlopen finds. Loaded once per library
 * name and kept for the process's life; a failure is not remembered (a later call tries again).
 * NULL on failure with -ENODEV and a message naming what was tried (vgw_shim_last_error).
 */
const vgw_cuda_api_t *vgw_cuda_load(const char *library);

/* Tests only: make vgw_cuda_load return `api` (NULL restores the real loader). */
void vgw_cuda_set_test_api(const vgw_cuda_api_t *api);

/*
 * Records a failed CUDA call for vgw_shim_last_error and returns the negative errno it maps to
 * (cuda_errors.c): "<what>: cudaErrorMemoryAllocation: out of memory". Also clears the
 * runtime's non-sticky last error so the next call starts clean.
 */
int vgw_cuda_fail(const vgw_cuda_api_t *api, int cuda_err, const char *what);
/* The negative errno for a cudaError_t (-EIO for codes the table does not know). */
int vgw_cuda_errno(int cuda_err);

#endif
