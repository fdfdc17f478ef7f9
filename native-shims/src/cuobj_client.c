/*
 * cuobj_client.c — the GPU-capable client ABI. In this build only host (SYSTEM) memory works:
 * it is a thin layer over the host client that remembers each registration's memory kind.
 * CUDA kinds are refused with -ENOTSUP and a message saying why.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "cuobjclient_wrapper.h"
#include "last_error.h"

struct cuobj_client_mr {
  rdma_host_mr_t *host_mr;
  uint32_t kind;
  struct cuobj_client_mr *next;
};

struct cuobj_client {
  rdma_host_client_t *host;
  pthread_mutex_t mu; /* guards mrs: handles still registered, freed by destroy */
  cuobj_client_mr_t *mrs;
};

static const char k_no_cuda[] = "CUDA memory needs the cuobj provider, not built here (host memory only)";

static int check_kind(uint32_t kind) {
  if (kind == CUOBJ_MEMORY_SYSTEM) return 0;
  if (kind == CUOBJ_MEMORY_CUDA_DEVICE || kind == CUOBJ_MEMORY_CUDA_MANAGED) return vgw_fail(-ENOTSUP, "%s", k_no_cuda);
  return vgw_fail(-EINVAL, "unknown memory kind %u", kind);
}

uint32_t cuobj_client_abi_version(void) { return VGW_SHIM_ABI_VERSION; }

cuobj_client_t *cuobj_client_create(const rdma_host_client_config_t *cfg) {
  cuobj_client_t *c = calloc(1, sizeof *c);
  if (c == NULL) return vgw_fail_null(-ENOMEM, "out of memory");
  c->host = rdma_host_client_create(cfg);
  if (c->host == NULL) {
    free(c);
    return NULL; /* detail already recorded */
  }
  pthread_mutex_init(&c->mu, NULL);
  return c;
}

void cuobj_client_destroy(cuobj_client_t *c) {
  if (c == NULL) return;
  rdma_host_client_destroy(c->host); /* frees every host registration */
  while (c->mrs) {
    cuobj_client_mr_t *n = c->mrs->next;
    free(c->mrs);
    c->mrs = n;
  }
  pthread_mutex_destroy(&c->mu);
  free(c);
}

int cuobj_client_agent_port(const cuobj_client_t *c) { return c ? rdma_host_client_agent_port(c->host) : -EINVAL; }
int cuobj_client_set_direct_access(cuobj_client_t *c, int allow) {
  return c ? rdma_host_client_set_direct_access(c->host, allow) : -EINVAL;
}

void *cuobj_client_alloc(cuobj_client_t *c, size_t size, uint32_t kind) {
  if (c == NULL) return vgw_fail_null(-EINVAL, "NULL client");
  if (check_kind(kind) != 0) return NULL;
  return rdma_host_client_alloc(c->host, size);
}

int cuobj_client_free(cuobj_client_t *c, void *ptr) { return c ? rdma_host_client_free(c->host, ptr) : -EINVAL; }

cuobj_client_mr_t *cuobj_client_register(cuobj_client_t *c, void *ptr, size_t size, uint32_t kind) {
  if (c == NULL) return vgw_fail_null(-EINVAL, "NULL client");
  if (check_kind(kind) != 0) return NULL;
  cuobj_client_mr_t *mr = calloc(1, sizeof *mr);
  if (mr == NULL) return vgw_fail_null(-ENOMEM, "out of memory");
  mr->kind = kind;
  mr->host_mr = rdma_host_client_register(c->host, ptr, size);
  if (mr->host_mr == NULL) {
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
  free(mr);
  return rc;
}

uint32_t cuobj_client_mr_memory_kind(const cuobj_client_mr_t *mr) { return mr ? mr->kind : UINT32_MAX; }
uint32_t cuobj_client_mr_rkey(const cuobj_client_mr_t *mr) { return mr ? rdma_host_mr_rkey(mr->host_mr) : 0; }
void *cuobj_client_mr_addr(const cuobj_client_mr_t *mr) { return mr ? rdma_host_mr_addr(mr->host_mr) : NULL; }
size_t cuobj_client_mr_size(const cuobj_client_mr_t *mr) { return mr ? rdma_host_mr_size(mr->host_mr) : 0; }

int cuobj_client_token(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t offset, size_t size, uint32_t op, char *out,
                       size_t cap) {
  if (c == NULL || mr == NULL) return vgw_fail(-EINVAL, "token: NULL argument");
  return rdma_host_client_token(c->host, mr->host_mr, offset, size, op, out, cap);
}
