/*
 * cudart_loader.c — finds the CUDA runtime at run time (dlopen + dlsym into vgw_cuda_api_t).
 * No CUDA header or library is needed to build the shims: the signatures are declared in
 * cuda_api.h. Loaded tables are cached per library name for the process's life (the runtime is
 * never unloaded: CUDA keeps threads and state that outlive any one client).
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../last_error.h"
#include "cuda_api.h"

#define CACHE_SLOTS 4

typedef struct symbol_row {
  const char *names[2]; /* tried in order; second may be NULL */
  size_t offset;        /* of the function pointer in vgw_cuda_api_t */
  int required;
} symbol_row_t;

#define SYM(field, required, ...) {{__VA_ARGS__}, offsetof(vgw_cuda_api_t, field), required}

static const symbol_row_t k_symbols[] = {
    SYM(runtime_get_version, 1, "cudaRuntimeGetVersion", NULL),
    SYM(driver_get_version, 0, "cudaDriverGetVersion", NULL),
    SYM(get_device_count, 1, "cudaGetDeviceCount", NULL),
    SYM(set_device, 1, "cudaSetDevice", NULL),
    SYM(malloc_device, 1, "cudaMalloc", NULL),
    SYM(free_device, 1, "cudaFree", NULL),
    SYM(host_register, 1, "cudaHostRegister", NULL),
    SYM(host_unregister, 1, "cudaHostUnregister", NULL),
    SYM(stream_create, 1, "cudaStreamCreateWithFlags", NULL),
    SYM(stream_destroy, 1, "cudaStreamDestroy", NULL),
    SYM(stream_synchronize, 1, "cudaStreamSynchronize", NULL),
    SYM(memcpy_async, 1, "cudaMemcpyAsync", NULL),
    SYM(memcpy_sync, 1, "cudaMemcpy", NULL),
    SYM(memset_device, 1, "cudaMemset", NULL),
    SYM(pointer_attributes, 1, "cudaPointerGetAttributes", NULL),
    SYM(get_last_error, 1, "cudaGetLastError", NULL),
    SYM(error_name, 1, "cudaGetErrorName", NULL),
    SYM(error_string, 1, "cudaGetErrorString", NULL),
    SYM(device_properties, 0, "cudaGetDeviceProperties_v2", "cudaGetDeviceProperties"),
};

static const char *const k_default_names[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12"};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static vgw_cuda_api_t *g_cache[CACHE_SLOTS];
static const vgw_cuda_api_t *g_test_api;

void vgw_cuda_set_test_api(const vgw_cuda_api_t *api) {
  pthread_mutex_lock(&g_mu);
  g_test_api = api;
  pthread_mutex_unlock(&g_mu);
}

/* dlsym every row into a fresh table; NULL + message in `why` when a required one is missing. */
static vgw_cuda_api_t *bind(void *handle, const char *name, char *why, size_t cap) {
  vgw_cuda_api_t *api = calloc(1, sizeof *api);
  if (api == NULL) {
    snprintf(why, cap, "out of memory");
    return NULL;
  }
  snprintf(api->origin, sizeof api->origin, "%s", name);
  for (size_t i = 0; i < sizeof k_symbols / sizeof k_symbols[0]; i++) {
    const symbol_row_t *row = &k_symbols[i];
    void *f = NULL;
    for (int k = 0; k < 2 && f == NULL && row->names[k]; k++) f = dlsym(handle, row->names[k]);
    if (f == NULL && row->required) {
      snprintf(why, cap, "%s lacks %s", name, row->names[0]);
      free(api);
      return NULL;
    }
    memcpy((char *)api + row->offset, &f, sizeof f); /* object → function pointer, POSIX-style */
  }
  return api;
}

static const vgw_cuda_api_t *cached(const char *name) {
  for (int i = 0; i < CACHE_SLOTS && g_cache[i]; i++)
    if (strcmp(g_cache[i]->origin, name) == 0) return g_cache[i];
  return NULL;
}

/* Tries one library name; the table on success, else NULL and a reason appended to `why`. */
static const vgw_cuda_api_t *try_load(const char *name, char *why, size_t cap) {
  const vgw_cuda_api_t *hit = cached(name);
  if (hit) return hit;
  size_t used = strlen(why);
  void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    const char *e = dlerror();
    /* dlerror repeats the name; keep only what follows it */
    const char *colon = e ? strrchr(e, ':') : NULL;
    snprintf(why + used, cap - used, "%s%s:%s", used ? "; " : "", name, colon ? colon + 1 : " not found");
    return NULL;
  }
  char reason[160] = "";
  vgw_cuda_api_t *api = bind(h, name, reason, sizeof reason);
  if (api == NULL) {
    dlclose(h);
    snprintf(why + used, cap - used, "%s%s", used ? "; " : "", reason);
    return NULL;
  }
  for (int i = 0; i < CACHE_SLOTS; i++) {
    if (g_cache[i] == NULL) {
      g_cache[i] = api;
      return api;
    }
  }
  /* More distinct runtimes than slots: serve it uncached (kept alive, never freed). */
  return api;
}

const vgw_cuda_api_t *vgw_cuda_load(const char *library) {
  pthread_mutex_lock(&g_mu);
  const vgw_cuda_api_t *api = g_test_api;
  char why[200] = "";
  if (api == NULL) {
    const char *env = getenv("VGWRDMA_CUDA_LIB");
    const char *chosen = library && *library ? library : env && *env ? env : NULL;
    if (chosen) {
      api = try_load(chosen, why, sizeof why);
    } else {
      for (size_t i = 0; api == NULL && i < sizeof k_default_names / sizeof k_default_names[0]; i++)
        api = try_load(k_default_names[i], why, sizeof why);
    }
  }
  pthread_mutex_unlock(&g_mu);
  if (api == NULL)
    return vgw_fail_null(-ENODEV, "no CUDA runtime: %s (install CUDA or set VGWRDMA_CUDA_LIB)", why);
  return api;
}
