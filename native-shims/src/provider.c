/*
 * provider.c — the provider table (which transports exist and whether this library can use
 * them), the registry of provider-owned client handles, and provider client creation.
 * softnic is always built. verbs is compiled in where rdma-core headers were found at build time
 * (CMake defines VGW_HAVE_VERBS) and loads rdma-core itself at run time. cuobj lives in a plugin
 * library loaded on first use (cuobj/plugin_loader.c), so "built" for cuobj means "the plugin
 * and its NVIDIA library load on this machine".
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "last_error.h"
#include "provider.h"
#include "vgw_shim_common.h"

#ifndef VGW_HAVE_VERBS
#define VGW_HAVE_VERBS 0
#endif
#if VGW_HAVE_VERBS
#include "verbs/verbs_client.h"
#endif

typedef struct provider_row {
  const char *name;
  int (*usable)(void); /* 1 / 0; on 0 the -ENODEV detail is recorded */
  const char *why_not; /* used when usable() records nothing better */
} provider_row_t;

static int softnic_usable(void) { return 1; }
static int cuobj_usable(void) { return vgw_provider_cuobj_plugin() != NULL; }
static int verbs_usable(void) { return VGW_HAVE_VERBS; }

static const provider_row_t k_providers[] = {
    [VGW_PROVIDER_SOFTNIC] = {"softnic", softnic_usable, ""},
    [VGW_PROVIDER_CUOBJ] = {"cuobj", cuobj_usable, NULL}, /* why: the loader's message */
    [VGW_PROVIDER_VERBS] = {"verbs", verbs_usable,
                            "verbs provider not built: rdma-core headers (infiniband/verbs.h, infiniband/mlx5dv.h; "
                            "Debian: libibverbs-dev) were not found when native-shims was built"},
};
#define N_PROVIDERS (sizeof k_providers / sizeof k_providers[0])

int vgw_shim_provider_built(uint32_t provider) {
  if (provider >= N_PROVIDERS) return -EINVAL;
  int usable = k_providers[provider].usable();
  /* 0: the sentence saying why is the caller's last error (-ENODEV), for messages at start-up */
  if (!usable) vgw_fail(-ENODEV, "%s", vgw_provider_why_not_built(provider));
  return usable;
}

const char *vgw_shim_provider_name(uint32_t provider) {
  return provider < N_PROVIDERS ? k_providers[provider].name : NULL;
}

int vgw_shim_provider_from_name(const char *name) {
  if (name == NULL) return -EINVAL;
  for (uint32_t i = 0; i < N_PROVIDERS; i++)
    if (strcmp(k_providers[i].name, name) == 0) return (int)i;
  return -EINVAL;
}

const char *vgw_provider_why_not_built(uint32_t provider) {
  if (provider == VGW_PROVIDER_CUOBJ) return vgw_provider_cuobj_why();
  return provider < N_PROVIDERS ? k_providers[provider].why_not : "unknown provider";
}

uint32_t vgw_shim_abi_version(void) { return VGW_SHIM_ABI_VERSION; }

/* ---- handle registry: a small open list; provider handles are few (clients, registrations) */

typedef struct handle_rec {
  const void *handle;
  const vgw_client_ops_t *ops;
  const void *owner; /* the client of a registration; the client itself for a client */
  struct handle_rec *next;
} handle_rec_t;

static pthread_mutex_t g_handles_mu = PTHREAD_MUTEX_INITIALIZER;
static handle_rec_t *g_handles;

int vgw_provider_handle_add(const void *handle, const vgw_client_ops_t *ops, const void *owner) {
  handle_rec_t *r = malloc(sizeof *r);
  if (r == NULL) return -ENOMEM;
  *r = (handle_rec_t){handle, ops, owner, NULL};
  pthread_mutex_lock(&g_handles_mu);
  r->next = g_handles;
  g_handles = r;
  pthread_mutex_unlock(&g_handles_mu);
  return 0;
}

void vgw_provider_handle_remove(const void *handle) {
  pthread_mutex_lock(&g_handles_mu);
  handle_rec_t **pp = &g_handles;
  while (*pp && (*pp)->handle != handle) pp = &(*pp)->next;
  handle_rec_t *r = *pp;
  if (r) *pp = r->next;
  pthread_mutex_unlock(&g_handles_mu);
  free(r);
}

const vgw_client_ops_t *vgw_provider_client_ops(const void *handle) {
  if (handle == NULL) return NULL;
  const vgw_client_ops_t *ops = NULL;
  pthread_mutex_lock(&g_handles_mu);
  for (handle_rec_t *r = g_handles; r && ops == NULL; r = r->next)
    if (r->handle == handle) ops = r->ops;
  pthread_mutex_unlock(&g_handles_mu);
  return ops;
}

/* Removes every record owned by client (its registrations and itself). */
static void remove_owned_by(const void *client) {
  pthread_mutex_lock(&g_handles_mu);
  handle_rec_t **pp = &g_handles;
  while (*pp) {
    handle_rec_t *r = *pp;
    if (r->owner == client) {
      *pp = r->next;
      free(r);
    } else {
      pp = &r->next;
    }
  }
  pthread_mutex_unlock(&g_handles_mu);
}

static int owned_by(const void *handle, const void *client) {
  int yes = 0;
  pthread_mutex_lock(&g_handles_mu);
  for (handle_rec_t *r = g_handles; r && !yes; r = r->next) yes = r->handle == handle && r->owner == client;
  pthread_mutex_unlock(&g_handles_mu);
  return yes;
}

int vgw_pc_destroy(void *client) {
  const vgw_client_ops_t *ops = vgw_provider_client_ops(client);
  if (ops == NULL) return 0;
  remove_owned_by(client);
  ops->destroy(client); /* frees the client's registrations too */
  return 1;
}

int vgw_pc_register(void *client, void *ptr, size_t size, uint32_t kind, void **out) {
  const vgw_client_ops_t *ops = vgw_provider_client_ops(client);
  if (ops == NULL) return 0;
  *out = ops->reg(client, ptr, size, kind);
  if (*out != NULL && vgw_provider_handle_add(*out, ops, client) != 0) {
    ops->dereg(client, *out);
    *out = vgw_fail_null(-ENOMEM, "register: out of memory");
  }
  return 1;
}

int vgw_pc_deregister(void *client, void *mr, int *rc) {
  const vgw_client_ops_t *ops = vgw_provider_client_ops(client);
  if (ops == NULL) return 0;
  if (mr == NULL || !owned_by(mr, client)) {
    *rc = vgw_fail(-EINVAL, "deregister: unknown registration");
    return 1;
  }
  vgw_provider_handle_remove(mr);
  *rc = ops->dereg(client, mr);
  return 1;
}

void *vgw_provider_client_create(const rdma_host_client_config_t *cfg) {
  void *c = NULL;
  const vgw_client_ops_t *ops = NULL;
  if (cfg->provider == VGW_PROVIDER_CUOBJ) {
    const vgw_plugin_t *p = vgw_provider_cuobj_client_plugin();
    if (p == NULL) return NULL; /* detail recorded by the loader, naming libcuobjclient.so */
    if (p->client_create == NULL || p->client == NULL)
      return vgw_fail_null(-ENODEV, "the cuobj plugin of this build has no client (built without cuobjclient.h)");
    c = p->client_create(cfg);
    ops = p->client;
  } else if (cfg->provider == VGW_PROVIDER_VERBS) {
#if VGW_HAVE_VERBS
    c = vgw_verbs_client_create(cfg);
    ops = &vgw_verbs_client_ops;
#else
    return vgw_fail_null(-ENODEV, "%s", k_providers[VGW_PROVIDER_VERBS].why_not);
#endif
  } else {
    return vgw_fail_null(-EINVAL, "provider %u has no provider client", cfg->provider);
  }
  if (c == NULL) return NULL;
  if (vgw_provider_handle_add(c, ops, c) != 0) {
    ops->destroy(c);
    return vgw_fail_null(-ENOMEM, "out of memory");
  }
  return c;
}
