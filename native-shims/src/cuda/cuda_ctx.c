/*
 * cuda_ctx.c — a GPU client's CUDA state (see cuda_ctx.h): runtime + device selection,
 * device allocations, staging parameters, plain copies, and a one-line description.
 */
#include "cuda_ctx.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../last_error.h"
#include "vgw_shim_common.h"

/* Defaults for new registrations: one copy on one stream. On the H200 (PCIe, pinned twin) a
 * single copy already runs at the link's ~54 GB/s; splitting it over 2-4 streams or 8-64 MiB
 * chunks measured the same (bench/device/gpu-roundtrip.mjs, README "Verified on"). */
#define DEFAULT_STREAMS 1u
#define DEFAULT_CHUNK 0u
#define MIN_CHUNK (64u << 10)

typedef struct dev_alloc {
  void *ptr;
  int device;
  struct dev_alloc *next;
} dev_alloc_t;

struct vgw_cuda_ctx {
  pthread_mutex_t mu; /* guards everything below */
  const vgw_cuda_api_t *api;
  int device;
  int device_count;
  vgw_staging_params_t params;
  dev_alloc_t *allocs;
};

vgw_cuda_ctx_t *vgw_cuda_ctx_new(void) {
  vgw_cuda_ctx_t *x = calloc(1, sizeof *x);
  if (x == NULL) return vgw_fail_null(-ENOMEM, "out of memory");
  pthread_mutex_init(&x->mu, NULL);
  x->params.streams = DEFAULT_STREAMS;
  x->params.chunk_bytes = DEFAULT_CHUNK;
  return x;
}

void vgw_cuda_ctx_free(vgw_cuda_ctx_t *x) {
  if (x == NULL) return;
  while (x->allocs) {
    dev_alloc_t *n = x->allocs->next;
    (void)x->api->set_device(x->allocs->device);
    (void)x->api->free_device(x->allocs->ptr);
    free(x->allocs);
    x->allocs = n;
  }
  pthread_mutex_destroy(&x->mu);
  free(x);
}

static int configure_locked(vgw_cuda_ctx_t *x, const char *library, int device) {
  if (device < 0) return vgw_fail(-EINVAL, "CUDA device %d: must be >= 0", device);
  const vgw_cuda_api_t *api = vgw_cuda_load(library);
  if (api == NULL) return vgw_shim_last_error(NULL, 0);
  if (x->api && x->api != api && x->allocs)
    return vgw_fail(-EBUSY, "CUDA runtime already in use by this client (%s)", x->api->origin);
  int count = 0;
  int e = api->get_device_count(&count);
  if (e != 0) {
    int err = vgw_cuda_fail(api, e, "no CUDA device: cudaGetDeviceCount");
    return err == -EIO ? vgw_fail(-ENODEV, "no CUDA device (cudaGetDeviceCount failed with %d)", e) : err;
  }
  if (count == 0) return vgw_fail(-ENODEV, "no CUDA device: the runtime (%s) sees none", api->origin);
  if (device >= count) return vgw_fail(-ENODEV, "CUDA device %d does not exist (%d present)", device, count);
  e = api->set_device(device);
  if (e != 0) return vgw_cuda_fail(api, e, "cudaSetDevice");
  x->api = api;
  x->device = device;
  x->device_count = count;
  return 0;
}

int vgw_cuda_ctx_configure(vgw_cuda_ctx_t *x, const char *library, int device) {
  pthread_mutex_lock(&x->mu);
  int rc = configure_locked(x, library, device);
  pthread_mutex_unlock(&x->mu);
  return rc;
}

const vgw_cuda_api_t *vgw_cuda_ctx_api(vgw_cuda_ctx_t *x) {
  pthread_mutex_lock(&x->mu);
  int rc = x->api ? 0 : configure_locked(x, NULL, 0);
  const vgw_cuda_api_t *api = x->api;
  pthread_mutex_unlock(&x->mu);
  return rc == 0 ? api : NULL;
}

int vgw_cuda_ctx_set_staging(vgw_cuda_ctx_t *x, size_t chunk_bytes, unsigned streams) {
  if (streams == 0 || streams > VGW_STAGING_MAX_STREAMS)
    return vgw_fail(-EINVAL, "staging streams %u not in 1..%u", streams, VGW_STAGING_MAX_STREAMS);
  if (chunk_bytes != 0 && chunk_bytes < MIN_CHUNK)
    return vgw_fail(-EINVAL, "staging chunk %zu below %u bytes (0 = split evenly)", chunk_bytes, MIN_CHUNK);
  pthread_mutex_lock(&x->mu);
  x->params.chunk_bytes = chunk_bytes;
  x->params.streams = streams;
  pthread_mutex_unlock(&x->mu);
  return 0;
}

void *vgw_cuda_ctx_alloc(vgw_cuda_ctx_t *x, size_t size) {
  const vgw_cuda_api_t *api = vgw_cuda_ctx_api(x);
  if (api == NULL) return NULL;
  if (size == 0) return vgw_fail_null(-EINVAL, "alloc: size 0");
  dev_alloc_t *rec = malloc(sizeof *rec);
  if (rec == NULL) return vgw_fail_null(-ENOMEM, "out of memory");
  pthread_mutex_lock(&x->mu);
  int e = api->set_device(x->device);
  void *p = NULL;
  if (e == 0) e = api->malloc_device(&p, size);
  if (e != 0) {
    pthread_mutex_unlock(&x->mu);
    free(rec);
    char what[64];
    snprintf(what, sizeof what, "cudaMalloc(%zu) on device %d", size, x->device);
    return (void)vgw_cuda_fail(api, e, what), NULL;
  }
  rec->ptr = p;
  rec->device = x->device;
  rec->next = x->allocs;
  x->allocs = rec;
  pthread_mutex_unlock(&x->mu);
  return p;
}

int vgw_cuda_ctx_owns(vgw_cuda_ctx_t *x, const void *ptr) {
  pthread_mutex_lock(&x->mu);
  const dev_alloc_t *a = x->allocs;
  while (a && a->ptr != ptr) a = a->next;
  pthread_mutex_unlock(&x->mu);
  return a != NULL;
}

int vgw_cuda_ctx_free_ptr(vgw_cuda_ctx_t *x, void *ptr) {
  pthread_mutex_lock(&x->mu);
  dev_alloc_t **pp = &x->allocs;
  while (*pp && (*pp)->ptr != ptr) pp = &(*pp)->next;
  dev_alloc_t *rec = *pp;
  if (rec) *pp = rec->next;
  pthread_mutex_unlock(&x->mu);
  if (rec == NULL) return 1;
  int e = x->api->set_device(rec->device);
  if (e == 0) e = x->api->free_device(rec->ptr);
  free(rec);
  return e == 0 ? 0 : vgw_cuda_fail(x->api, e, "cudaFree");
}

int vgw_cuda_ctx_check_device_ptr(vgw_cuda_ctx_t *x, const void *ptr, int *device) {
  const vgw_cuda_api_t *api = vgw_cuda_ctx_api(x);
  if (api == NULL) return vgw_shim_last_error(NULL, 0);
  vgw_cuda_ptr_attrs_t a;
  memset(&a, 0, sizeof a);
  int e = api->pointer_attributes(&a, ptr);
  if (e != 0) return vgw_cuda_fail(api, e, "cudaPointerGetAttributes");
  if (a.type != VGW_CUDA_MEM_DEVICE)
    return vgw_fail(-EINVAL, "register: %p is not CUDA device memory (cudaPointerGetAttributes type %d%s)", ptr,
                    a.type, a.type == VGW_CUDA_MEM_MANAGED ? ", managed memory is not supported" : "");
  *device = a.device;
  return 0;
}

vgw_staging_t *vgw_cuda_ctx_staging(vgw_cuda_ctx_t *x, int device, void *dev, void *host, size_t size) {
  const vgw_cuda_api_t *api = vgw_cuda_ctx_api(x);
  if (api == NULL) return NULL;
  pthread_mutex_lock(&x->mu);
  vgw_staging_params_t p = x->params;
  pthread_mutex_unlock(&x->mu);
  return vgw_staging_create(api, device, dev, host, size, &p);
}

int vgw_cuda_ctx_memcpy(vgw_cuda_ctx_t *x, void *dst, const void *src, size_t n, int kind) {
  if (kind != VGW_CUDA_H2D && kind != VGW_CUDA_D2H) return vgw_fail(-EINVAL, "memcpy: direction %d", kind);
  if (dst == NULL || src == NULL || n == 0) return vgw_fail(-EINVAL, "memcpy: NULL pointer or size 0");
  const vgw_cuda_api_t *api = vgw_cuda_ctx_api(x);
  if (api == NULL) return vgw_shim_last_error(NULL, 0);
  int e = api->memcpy_sync(dst, src, n, kind);
  return e == 0 ? 0 : vgw_cuda_fail(api, e, kind == VGW_CUDA_H2D ? "cudaMemcpy (host->device)" : "cudaMemcpy (device->host)");
}

int vgw_cuda_ctx_memset(vgw_cuda_ctx_t *x, void *dev, int value, size_t n) {
  if (dev == NULL || n == 0) return vgw_fail(-EINVAL, "memset: NULL pointer or size 0");
  const vgw_cuda_api_t *api = vgw_cuda_ctx_api(x);
  if (api == NULL) return vgw_shim_last_error(NULL, 0);
  int e = api->memset_device(dev, value, n);
  if (e == 0) e = api->stream_synchronize(NULL); /* cudaMemset is asynchronous to the host */
  return e == 0 ? 0 : vgw_cuda_fail(api, e, "cudaMemset");
}

int vgw_cuda_ctx_describe(vgw_cuda_ctx_t *x, char *out, size_t cap) {
  if (out == NULL || cap == 0) return vgw_fail(-EINVAL, "describe: no output buffer");
  const vgw_cuda_api_t *api = vgw_cuda_ctx_api(x);
  if (api == NULL) return vgw_shim_last_error(NULL, 0);
  int rt = 0, drv = 0;
  (void)api->runtime_get_version(&rt);
  if (api->driver_get_version) (void)api->driver_get_version(&drv);
  char name[256] = "unnamed device";
  if (api->device_properties) {
    char *prop = calloc(1, 64 << 10); /* cudaDeviceProp is ~1 KiB; leave room for later runtimes */
    if (prop && api->device_properties(prop, x->device) == 0) snprintf(name, sizeof name, "%.255s", prop);
    free(prop);
  }
  int n = snprintf(out, cap, "%s (device %d of %d), runtime %d, driver %d, %s", name, x->device, x->device_count, rt,
                   drv, api->origin);
  return n < 0 ? -EIO : (size_t)n < cap ? n : (int)cap - 1;
}
