/*
 * staging.h — internal: GDS-compatibility-mode staging for one GPU registration. The softnic
 * transport cannot reach device memory, so a registration of `size` device bytes gets a host
 * twin of the same size, pinned with cudaHostRegister when the runtime allows (pageable
 * otherwise, slower); the transport serves the twin, and the client copies device → host before
 * an upload and host → device after a download.
 *
 * A copy is split into chunks issued round-robin on up to VGW_STAGING_MAX_STREAMS streams and
 * then waited for; chunk_bytes 0 means one copy per stream share. Invariants: the chunks cover
 * [offset, offset+size) exactly once, in order per stream; a failure stops issuing, waits for
 * what was issued, and reports the first error. One copy at a time per staging (a mutex).
 */
#ifndef VGW_CUDA_STAGING_H
#define VGW_CUDA_STAGING_H

#include <stddef.h>

#include "cuda_api.h"

#define VGW_STAGING_MAX_STREAMS 8u

typedef struct vgw_staging_params {
  size_t chunk_bytes; /* 0 = split evenly over the streams */
  unsigned streams;   /* 1..VGW_STAGING_MAX_STREAMS */
} vgw_staging_params_t;

typedef enum vgw_stage_dir { VGW_STAGE_TO_HOST = 0, VGW_STAGE_TO_DEVICE = 1 } vgw_stage_dir_t;

typedef struct vgw_staging vgw_staging_t;

/* `host` is caller memory of at least `size` bytes that outlives the staging. NULL on failure
 * (negative errno + message via vgw_shim_last_error). */
vgw_staging_t *vgw_staging_create(const vgw_cuda_api_t *api, int device, void *dev, void *host, size_t size,
                                  const vgw_staging_params_t *params);
/* Copies [offset, offset+size) in `dir`; 0 or a negative errno. Blocks until the bytes are there. */
int vgw_staging_copy(vgw_staging_t *s, vgw_stage_dir_t dir, size_t offset, size_t size);
/* Paced copy of [0, size) in `chunk` pieces (ABI 1.9: staging overlapped with the transfer),
 * in order, at most one chunk in flight per stream. TO_HOST: once [0, upto) is on the host,
 * pace(ctx, upto) is called, in order (the caller publishes it). TO_DEVICE: before the chunk
 * that ends at `upto` is issued, pace(ctx, upto) must return 0 once [0, upto) of the host holds
 * its final bytes (the caller waits for them). A non-zero pace stops issuing; after waiting for
 * what was issued that value is returned. 0, that value, or a CUDA errno (with a message). */
typedef int (*vgw_stage_pace_fn)(void *ctx, size_t upto);
int vgw_staging_copy_paced(vgw_staging_t *s, vgw_stage_dir_t dir, size_t size, size_t chunk, vgw_stage_pace_fn pace,
                           void *ctx);
/* 1 when the host twin is pinned (cudaHostRegister), 0 when pageable. */
int vgw_staging_pinned(const vgw_staging_t *s);
/* Unpins and destroys the streams; the host memory stays the caller's. NULL is a no-op. */
void vgw_staging_destroy(vgw_staging_t *s);

#endif
