/*
 * cuobj_client.c — the GPU-capable client ABI over the host client (softnic). Memory kinds are
 * a table of operations: SYSTEM is served as it is; CUDA_DEVICE registrations get a pinned host
 * twin that the transport serves and that stage_to_host / stage_to_device keep in step with the
 * device (src/cuda/); CUDA_MANAGED is refused. A vendor provider (GPUDirect, no staging) adds
 * its own rows rather than branches.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuobj_client_impl.h"
#include "last_error.h"
#include "provider.h" /* provider hook in device_attach */

/* ---- memory kinds ---- */

typedef struct kind_ops {
  void *(*alloc)(cuobj_client_t *c, size_t size);
  /* Fills mr->host_mr (and the kind's own fields) for [ptr, ptr+size). 0 or -errno. */
  int (*attach)(cuobj_client_t *c, cuobj_client_mr_t *mr, void *ptr, size_t size);
  void (*detach)(cuobj_client_t *c, cuobj_client_mr_t *mr);
} kind_ops_t;

static void *system_alloc(cuobj_client_t *c, size_t size) { return rdma_host_client_alloc(c->host, size); }

static int system_attach(cuobj_client_t *c, cuobj_client_mr_t *mr, void *ptr, size_t size) {
  mr->host_mr = rdma_host_client_register(c->host, ptr, size);
  return mr->host_mr ? 0 : vgw_shim_last_error(NULL, 0);
}

static void system_detach(cuobj_client_t *c, cuobj_client_mr_t *mr) { (void)c, (void)mr; }

static void *device_alloc(cuobj_client_t *c, size_t size) {
  if (size > RDMA_HOST_MAX_REGION)
    return vgw_fail_null(-EINVAL, "alloc: size %zu not in 1..4 GiB - 64 KiB", size);
  return vgw_cuda_ctx_alloc(c->cuda, size);
}

static int device_attach(cuobj_client_t *c, cuobj_client_mr_t *mr, void *ptr, size_t size) {
  int device = 0;
  int rc = vgw_cuda_ctx_check_device_ptr(c->cuda, ptr, &device);
  if (rc != 0) return rc;
  /* --- provider hook (hardware providers, src/cuobj/): a vendor cuObjClient registers device
   * memory itself (GPUDirect): no host twin, no staging; stage_* then have nothing to do. --- */
  void *vendor_mr;
  if (vgw_pc_register(c->host, ptr, size, CUOBJ_MEMORY_CUDA_DEVICE, &vendor_mr)) {
    mr->host_mr = vendor_mr;
    return vendor_mr ? 0 : vgw_shim_last_error(NULL, 0);
  }
  /* --- end of provider hook --- */
  mr->twin = rdma_host_client_alloc(c->host, size);
  if (mr->twin == NULL) return vgw_shim_last_error(NULL, 0);
  mr->staging = vgw_cuda_ctx_staging(c->cuda, device, ptr, mr->twin, size);
  if (mr->staging) mr->host_mr = rdma_host_client_register(c->host, mr->twin, size);
  if (mr->host_mr) return 0;
  rc = vgw_shim_last_error(NULL, 0);
  vgw_staging_destroy(mr->staging);
  rdma_host_client_free(c->host, mr->twin);
  return rc;
}

static void device_detach(cuobj_client_t *c, cuobj_client_mr_t *mr) {
  vgw_staging_destroy(mr->staging); /* after the transport let go of the twin */
  rdma_host_client_free(c->host, mr->twin);
}

static const kind_ops_t k_system = {system_alloc, system_attach, system_detach};
static const kind_ops_t k_device = {device_alloc, device_attach, device_detach};

static const struct {
  uint32_t kind;
  const kind_ops_t *ops; /* NULL: refused with `why` */
  const char *why;
} k_kinds[] = {
    {CUOBJ_MEMORY_SYSTEM, &k_system, NULL},
    {CUOBJ_MEMORY_CUDA_DEVICE, &k_device, NULL},
    {CUOBJ_MEMORY_CUDA_MANAGED, NULL, "CUDA managed memory is not supported (allocate device memory instead)"},
};

static const kind_ops_t *ops_for(uint32_t kind) {
  for (size_t i = 0; i < sizeof k_kinds / sizeof k_kinds[0]; i++) {
    if (k_kinds[i].kind != kind) continue;
    if (k_kinds[i].ops == NULL) return vgw_fail_null(-ENOTSUP, "%s", k_kinds[i].why);
    return k_kinds[i].ops;
  }
  return vgw_fail_null(-EINVAL, "unknown memory kind %u", kind);
}

/* ---- lifecycle ---- */

uint32_t cuobj_client_abi_version(void) { return VGW_SHIM_ABI_VERSION; }

cuobj_client_t *cuobj_client_create(const rdma_host_client_config_t *cfg) {
  cuobj_client_t *c = calloc(1, sizeof *c);
  if (c == NULL) return vgw_fail_null(-ENOMEM, "out of memory");
  c->cuda = vgw_cuda_ctx_new();
  c->host = c->cuda ? rdma_host_client_create(cfg) : NULL;
  if (c->host == NULL) {
    vgw_cuda_ctx_free(c->cuda);
    free(c);
    return NULL; /* detail already recorded */
  }
  pthread_mutex_init(&c->mu, NULL);
  return c;
}

void cuobj_client_destroy(cuobj_client_t *c) {
  if (c == NULL) return;
  /* Unpin the twins while they are still mapped (unpinned memory stays readable by the agent),
   * then stop the agent, which frees every host registration and twin. */
  for (cuobj_client_mr_t *m = c->mrs; m; m = m->next) vgw_staging_destroy(m->staging);
  rdma_host_client_destroy(c->host);
  while (c->mrs) {
    cuobj_client_mr_t *n = c->mrs->next;
    free(c->mrs);
    c->mrs = n;
  }
  vgw_cuda_ctx_free(c->cuda); /* device memory still allocated */
  pthread_mutex_destroy(&c->mu);
  free(c);
}

int cuobj_client_agent_port(const cuobj_client_t *c) { return c ? rdma_host_client_agent_port(c->host) : -EINVAL; }
int cuobj_client_set_direct_access(cuobj_client_t *c, int allow) {
  return c ? rdma_host_client_set_direct_access(c->host, allow) : -EINVAL;
}

/* ---- memory ---- */

void *cuobj_client_alloc(cuobj_client_t *c, size_t size, uint32_t kind) {
  if (c == NULL) return vgw_fail_null(-EINVAL, "NULL client");
  const kind_ops_t *ops = ops_for(kind);
  return ops ? ops->alloc(c, size) : NULL;
}

int cuobj_client_free(cuobj_client_t *c, void *ptr) {
  if (c == NULL || ptr == NULL) return vgw_fail(-EINVAL, "free: NULL argument");
  if (!vgw_cuda_ctx_owns(c->cuda, ptr)) return rdma_host_client_free(c->host, ptr); /* checks its own */
  pthread_mutex_lock(&c->mu);
  int busy = 0; /* device memory a registration still stages from */
  for (cuobj_client_mr_t *m = c->mrs; m && !busy; m = m->next) busy = m->staging != NULL && m->addr == ptr;
  pthread_mutex_unlock(&c->mu);
  if (busy) return vgw_fail(-EBUSY, "free: device memory %p is still registered", ptr);
  int rc = vgw_cuda_ctx_free_ptr(c->cuda, ptr);
  return rc == 1 ? rdma_host_client_free(c->host, ptr) : rc;
}

cuobj_client_mr_t *cuobj_client_register(cuobj_client_t *c, void *ptr, size_t size, uint32_t kind) {
  if (c == NULL) return vgw_fail_null(-EINVAL, "NULL client");
  const kind_ops_t *ops = ops_for(kind);
  if (ops == NULL) return NULL;
  if (ptr == NULL || size == 0 || size > RDMA_HOST_MAX_REGION)
    return vgw_fail_null(-EINVAL, "register: NULL pointer or size %zu not in 1..4 GiB - 64 KiB", size);
  cuobj_client_mr_t *mr = calloc(1, sizeof *mr);
  if (mr == NULL) return vgw_fail_null(-ENOMEM, "out of memory");
  mr->kind = kind;
  mr->addr = ptr;
  mr->size = size;
  if (ops->attach(c, mr, ptr, size) != 0) {
    free(mr);
    return NULL;
  }
  pthread_mutex_lock(&c->mu);
  mr->next = c->mrs;
  c->mrs = mr;
  pthread_mutex_unlock(&c->mu);
  return mr;
}

int cuobj_client_deregister(cuobj_client_t *c, cuobj_client_mr_t *mr) {
  if (c == NULL || mr == NULL) return vgw_fail(-EINVAL, "deregister: NULL argument");
  pthread_mutex_lock(&c->mu);
  cuobj_client_mr_t **pp = &c->mrs;
  while (*pp && *pp != mr) pp = &(*pp)->next;
  int found = *pp != NULL;
  if (found) *pp = mr->next;
  pthread_mutex_unlock(&c->mu);
  if (!found) return vgw_fail(-EINVAL, "deregister: unknown registration");
  int rc = rdma_host_client_deregister(c->host, mr->host_mr);
  const kind_ops_t *ops = ops_for(mr->kind);
  if (ops) ops->detach(c, mr);
  free(mr);
  return rc;
}

uint32_t cuobj_client_mr_memory_kind(const cuobj_client_mr_t *mr) { return mr ? mr->kind : UINT32_MAX; }
uint32_t cuobj_client_mr_rkey(const cuobj_client_mr_t *mr) { return mr ? rdma_host_mr_rkey(mr->host_mr) : 0; }
void *cuobj_client_mr_addr(const cuobj_client_mr_t *mr) { return mr ? mr->addr : NULL; }
size_t cuobj_client_mr_size(const cuobj_client_mr_t *mr) { return mr ? mr->size : 0; }
void *cuobj_client_mr_staging_addr(const cuobj_client_mr_t *mr) { return mr ? mr->twin : NULL; }
int cuobj_client_mr_staging_pinned(const cuobj_client_mr_t *mr) {
  return mr ? vgw_staging_pinned(mr->staging) : -EINVAL;
}

int cuobj_client_token(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t offset, size_t size, uint32_t op, char *out,
                       size_t cap) {
  if (c == NULL || mr == NULL) return vgw_fail(-EINVAL, "token: NULL argument");
  return rdma_host_client_token(c->host, mr->host_mr, offset, size, op, out, cap);
}

/* ---- CUDA (ABI 1.3) ---- */

int cuobj_client_cuda_configure(cuobj_client_t *c, const char *library, int device) {
  return c ? vgw_cuda_ctx_configure(c->cuda, library, device) : vgw_fail(-EINVAL, "NULL client");
}

int cuobj_client_cuda_set_staging(cuobj_client_t *c, size_t chunk_bytes, uint32_t streams) {
  return c ? vgw_cuda_ctx_set_staging(c->cuda, chunk_bytes, streams) : vgw_fail(-EINVAL, "NULL client");
}

int cuobj_client_cuda_describe(cuobj_client_t *c, char *out, size_t cap) {
  return c ? vgw_cuda_ctx_describe(c->cuda, out, cap) : vgw_fail(-EINVAL, "NULL client");
}

static int stage(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t offset, size_t size, vgw_stage_dir_t dir) {
  if (c == NULL || mr == NULL) return vgw_fail(-EINVAL, "stage: NULL argument");
  if (mr->staging == NULL) { /* host memory: the transport already serves the bytes themselves */
    if (size == 0 || offset > mr->size || size > mr->size - offset)
      return vgw_fail(-EINVAL, "stage: [%zu, +%zu) is outside the %zu-byte registration", offset, size, mr->size);
    return 0;
  }
  int rc = vgw_staging_copy(mr->staging, dir, offset, size);
  if (rc < 0) vgw_cuobj_keep_stage_error(c, mr);
  return rc;
}

void vgw_cuobj_keep_stage_error(cuobj_client_t *c, cuobj_client_mr_t *mr) {
  pthread_mutex_lock(&c->mu); /* koffi .async callers run stages on a pool thread: keep the detail on the handle */
  mr->stage_err = vgw_shim_last_error(mr->stage_msg, sizeof mr->stage_msg);
  pthread_mutex_unlock(&c->mu);
}

int cuobj_client_mr_last_stage_error(cuobj_client_t *c, const cuobj_client_mr_t *mr, char *msg, size_t cap) {
  if (c == NULL || mr == NULL) return vgw_fail(-EINVAL, "NULL argument");
  pthread_mutex_lock(&c->mu);
  int err = mr->stage_err;
  if (msg && cap) snprintf(msg, cap, "%s", mr->stage_msg);
  pthread_mutex_unlock(&c->mu);
  return err;
}

int cuobj_client_stage_to_host(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t offset, size_t size) {
  return stage(c, mr, offset, size, VGW_STAGE_TO_HOST);
}

int cuobj_client_stage_to_device(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t offset, size_t size) {
  return stage(c, mr, offset, size, VGW_STAGE_TO_DEVICE);
}

int cuobj_client_cuda_memcpy(cuobj_client_t *c, void *dst, const void *src, size_t size, uint32_t direction) {
  if (c == NULL) return vgw_fail(-EINVAL, "NULL client");
  return vgw_cuda_ctx_memcpy(c->cuda, dst, src, size, (int)direction);
}

int cuobj_client_cuda_memset(cuobj_client_t *c, void *dev, int value, size_t size) {
  return c ? vgw_cuda_ctx_memset(c->cuda, dev, value, size) : vgw_fail(-EINVAL, "NULL client");
}
