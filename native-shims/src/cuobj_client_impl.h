/*
 * cuobj_client_impl.h — internal: the GPU client's handles, shared by cuobj_client.c (memory
 * kinds, staging) and cuobj_overlap.c (staging overlapped with the transfer, ABI 1.9).
 */
#ifndef VGW_CUOBJ_CLIENT_IMPL_H
#define VGW_CUOBJ_CLIENT_IMPL_H

#include <pthread.h>

#include "cuda/cuda_ctx.h"
#include "cuobjclient_wrapper.h"

struct cuobj_client_mr {
  rdma_host_mr_t *host_mr; /* what the transport serves: the memory itself, or its host twin */
  uint32_t kind;
  void *addr;              /* the caller's address (device pointer for CUDA_DEVICE) */
  size_t size;
  vgw_staging_t *staging;  /* CUDA_DEVICE: the twin's copies; NULL for SYSTEM */
  void *twin;              /* CUDA_DEVICE: host twin from rdma_host_client_alloc */
  int stage_err;           /* last failed stage: errno and message, for callers on other threads */
  char stage_msg[256];
  struct cuobj_client_mr *next;
};

struct cuobj_client {
  rdma_host_client_t *host;
  vgw_cuda_ctx_t *cuda;
  pthread_mutex_t mu; /* guards mrs: handles still registered, freed by destroy */
  cuobj_client_mr_t *mrs;
};

/* Records the calling thread's last error as mr's last stage error. */
void vgw_cuobj_keep_stage_error(cuobj_client_t *c, cuobj_client_mr_t *mr);

#endif
