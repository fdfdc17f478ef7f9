/*
 * staging.c — the host twin of a GPU registration and the chunked, multi-stream copies
 * between the two (see staging.h for the contract).
 */
#include "staging.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../last_error.h"

struct vgw_staging {
  const vgw_cuda_api_t *api;
  int device;
  uint8_t *dev;
  uint8_t *host;
  size_t size;
  int pinned;
  size_t chunk;
  unsigned nstreams;
  void *streams[VGW_STAGING_MAX_STREAMS];
  pthread_mutex_t mu;
};

static const char *const k_dir_name[] = {"device->host", "host->device"};

void vgw_staging_destroy(vgw_staging_t *s) {
  if (s == NULL) return;
  (void)s->api->set_device(s->device);
  for (unsigned i = 0; i < s->nstreams; i++)
    if (s->streams[i]) (void)s->api->stream_destroy(s->streams[i]);
  if (s->pinned) (void)s->api->host_unregister(s->host);
  pthread_mutex_destroy(&s->mu);
  free(s);
}

vgw_staging_t *vgw_staging_create(const vgw_cuda_api_t *api, int device, void *dev, void *host, size_t size,
                                  const vgw_staging_params_t *p) {
  if (api == NULL || dev == NULL || host == NULL || size == 0 || p == NULL || p->streams == 0 ||
      p->streams > VGW_STAGING_MAX_STREAMS)
    return vgw_fail_null(-EINVAL, "staging: bad arguments");
  vgw_staging_t *s = calloc(1, sizeof *s);
  if (s == NULL) return vgw_fail_null(-ENOMEM, "out of memory");
  s->api = api;
  s->device = device;
  s->dev = dev;
  s->host = host;
  s->size = size;
  s->chunk = p->chunk_bytes;
  pthread_mutex_init(&s->mu, NULL);
  int e = api->set_device(device);
  if (e != 0) {
    vgw_cuda_fail(api, e, "cudaSetDevice");
    free(s);
    return NULL;
  }
  /* Pinned memory lets the copy engines DMA directly; without it the runtime bounces through
   * its own pinned buffers (correct, slower). cudaHostRegister on anonymous memory keeps it
   * ordinary memory to the kernel, so softnic's process_vm_* and socket paths still reach it. */
  s->pinned = api->host_register(host, size, 0) == 0;
  if (!s->pinned) (void)api->get_last_error();
  for (unsigned i = 0; i < p->streams; i++) {
    e = api->stream_create(&s->streams[i], VGW_CUDA_STREAM_NON_BLOCKING);
    if (e != 0) {
      s->nstreams = i;
      vgw_cuda_fail(api, e, "cudaStreamCreateWithFlags (staging streams)");
      vgw_staging_destroy(s); /* calls nothing that records an error */
      return NULL;
    }
  }
  s->nstreams = p->streams;
  return s;
}

int vgw_staging_pinned(const vgw_staging_t *s) { return s ? s->pinned : 0; }

/* Chunk length for a copy of `size` bytes: the configured one, or an even share per stream. */
static size_t chunk_of(const vgw_staging_t *s, size_t size) {
  if (s->chunk) return s->chunk;
  return (size + s->nstreams - 1) / s->nstreams;
}

int vgw_staging_copy(vgw_staging_t *s, vgw_stage_dir_t dir, size_t offset, size_t size) {
  if (s == NULL || (dir != VGW_STAGE_TO_HOST && dir != VGW_STAGE_TO_DEVICE))
    return vgw_fail(-EINVAL, "stage: bad arguments");
  if (size == 0 || offset > s->size || size > s->size - offset)
    return vgw_fail(-EINVAL, "stage: [%zu, +%zu) is outside the %zu-byte registration", offset, size, s->size);
  const vgw_cuda_api_t *api = s->api;
  pthread_mutex_lock(&s->mu);
  int first = api->set_device(s->device);
  const char *what = "cudaSetDevice";
  size_t chunk = chunk_of(s, size);
  unsigned used = 0; /* streams that got work and must be waited for */
  for (size_t at = 0; first == 0 && at < size; at += chunk) {
    size_t n = size - at < chunk ? size - at : chunk;
    unsigned k = (unsigned)((at / chunk) % s->nstreams);
    uint8_t *d = s->dev + offset + at, *h = s->host + offset + at;
    first = dir == VGW_STAGE_TO_HOST ? api->memcpy_async(h, d, n, VGW_CUDA_D2H, s->streams[k])
                                     : api->memcpy_async(d, h, n, VGW_CUDA_H2D, s->streams[k]);
    what = "cudaMemcpyAsync";
    if (used < k + 1) used = k + 1;
  }
  /* Wait for everything issued, even after a failure: the copies still own the memory. */
  for (unsigned k = 0; k < used; k++) {
    int e = api->stream_synchronize(s->streams[k]);
    if (first == 0 && e != 0) {
      first = e;
      what = "cudaStreamSynchronize";
    }
  }
  pthread_mutex_unlock(&s->mu);
  if (first == 0) return 0;
  char ctx[96];
  snprintf(ctx, sizeof ctx, "%s (%s, %zu bytes at %zu)", what, k_dir_name[dir], size, offset);
  return vgw_cuda_fail(api, first, ctx);
}

/* One chunk in flight: its stream and where it ends. */
typedef struct inflight {
  unsigned stream;
  size_t end;
} inflight_t;

int vgw_staging_copy_paced(vgw_staging_t *s, vgw_stage_dir_t dir, size_t size, size_t chunk, vgw_stage_pace_fn pace,
                           void *ctx) {
  if (s == NULL || pace == NULL || chunk == 0 || (dir != VGW_STAGE_TO_HOST && dir != VGW_STAGE_TO_DEVICE))
    return vgw_fail(-EINVAL, "stage: bad arguments");
  if (size == 0 || size > s->size)
    return vgw_fail(-EINVAL, "stage: %zu bytes is not in 1..%zu (the registration)", size, s->size);
  const vgw_cuda_api_t *api = s->api;
  pthread_mutex_lock(&s->mu);
  int cuda = api->set_device(s->device), paced = 0;
  const char *what = "cudaSetDevice";
  inflight_t q[VGW_STAGING_MAX_STREAMS];
  unsigned head = 0, len = 0, next_stream = 0;
  size_t issued = 0;
  while (cuda == 0 && paced == 0 && (issued < size || len > 0)) {
    if (issued < size && len < s->nstreams) { /* a stream is free: issue the next chunk */
      size_t n = size - issued < chunk ? size - issued : chunk;
      if (dir == VGW_STAGE_TO_DEVICE && (paced = pace(ctx, issued + n)) != 0) break;
      unsigned k = next_stream;
      next_stream = (next_stream + 1) % s->nstreams;
      uint8_t *d = s->dev + issued, *h = s->host + issued;
      cuda = dir == VGW_STAGE_TO_HOST ? api->memcpy_async(h, d, n, VGW_CUDA_D2H, s->streams[k])
                                      : api->memcpy_async(d, h, n, VGW_CUDA_H2D, s->streams[k]);
      what = "cudaMemcpyAsync";
      if (cuda) break;
      q[(head + len++) % VGW_STAGING_MAX_STREAMS] = (inflight_t){k, issued + n};
      issued += n;
      continue;
    }
    inflight_t oldest = q[head]; /* every stream busy, or all issued: wait for the oldest */
    head = (head + 1) % VGW_STAGING_MAX_STREAMS;
    len--;
    cuda = api->stream_synchronize(s->streams[oldest.stream]);
    what = "cudaStreamSynchronize";
    if (cuda == 0 && dir == VGW_STAGE_TO_HOST) paced = pace(ctx, oldest.end);
  }
  for (; len > 0; len--, head = (head + 1) % VGW_STAGING_MAX_STREAMS) /* issued copies own the memory */
    (void)api->stream_synchronize(s->streams[q[head].stream]);
  pthread_mutex_unlock(&s->mu);
  if (cuda == 0) return paced;
  char msg[96];
  snprintf(msg, sizeof msg, "%s (%s, overlapped, %zu of %zu bytes issued)", what, k_dir_name[dir], issued, size);
  return vgw_cuda_fail(api, cuda, msg);
}
