/*
 * rdma_core.c — dlopen rdma-core once and fill the function table (see rdma_core.h). The table
 * lists symbol name → slot; a missing symbol fails the load with its name.
 */
#include "rdma_core.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../last_error.h"

typedef struct sym_row {
  int lib; /* 0 = libibverbs, 1 = libmlx5 */
  const char *name;
  size_t slot; /* offsetof in vgw_rdma_core_t */
} sym_row_t;

#define ROW(lib, sym, field) {lib, sym, offsetof(vgw_rdma_core_t, field)}
static const sym_row_t k_syms[] = {
    ROW(0, "ibv_get_device_list", get_device_list), ROW(0, "ibv_free_device_list", free_device_list),
    ROW(0, "ibv_get_device_name", get_device_name), ROW(0, "ibv_open_device", open_device),
    ROW(0, "ibv_close_device", close_device),       ROW(0, "ibv_query_port", query_port),
    ROW(0, "ibv_query_gid", query_gid),             ROW(0, "ibv_alloc_pd", alloc_pd),
    ROW(0, "ibv_dealloc_pd", dealloc_pd),           ROW(0, "ibv_reg_mr", reg_mr),
    ROW(0, "ibv_dereg_mr", dereg_mr),               ROW(0, "ibv_create_cq", create_cq),
    ROW(0, "ibv_destroy_cq", destroy_cq),           ROW(0, "ibv_create_srq", create_srq),
    ROW(0, "ibv_destroy_srq", destroy_srq),         ROW(0, "ibv_modify_qp", modify_qp),
    ROW(0, "ibv_destroy_qp", destroy_qp),           ROW(1, "mlx5dv_is_supported", mlx5dv_is_supported),
    ROW(1, "mlx5dv_create_qp", mlx5dv_create_qp),
};
static const char *const k_libs[] = {"libibverbs.so.1", "libmlx5.so.1"};

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static vgw_rdma_core_t g_core;
static int g_ok;
static char g_why[512];

static void load_once(void) {
  void *h[2];
  for (int i = 0; i < 2; i++) {
    h[i] = dlopen(k_libs[i], RTLD_NOW | RTLD_LOCAL);
    if (h[i] == NULL) {
      snprintf(g_why, sizeof g_why, "verbs provider: %s (rdma-core; Debian: ibverbs-providers) cannot be loaded: %s",
               k_libs[i], dlerror());
      return;
    }
  }
  for (size_t i = 0; i < sizeof k_syms / sizeof k_syms[0]; i++) {
    void *f = dlsym(h[k_syms[i].lib], k_syms[i].name);
    if (f == NULL) {
      snprintf(g_why, sizeof g_why, "verbs provider: %s lacks %s (rdma-core too old?)", k_libs[k_syms[i].lib],
               k_syms[i].name);
      return;
    }
    /* Object pointer → function pointer slot: POSIX guarantees the representation for dlsym. */
    memcpy((char *)&g_core + k_syms[i].slot, &f, sizeof f);
  }
  g_ok = 1; /* the libraries stay loaded for the life of the process */
}

const vgw_rdma_core_t *vgw_rdma_core(void) {
  pthread_once(&g_once, load_once);
  if (!g_ok) return vgw_fail_null(-ENODEV, "%s", g_why);
  return &g_core;
}
