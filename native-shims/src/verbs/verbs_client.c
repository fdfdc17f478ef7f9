/*
 * verbs_client.c — the verbs host client (see verbs_client.h). Object lifetime: create opens the
 * device and builds PD → CQ → SRQ → DCT (INIT → RTR); destroy tears down in reverse after the
 * registrations. Registrations and allocations are lists under one mutex, as in the softnic
 * host client, so deregister/free of a foreign handle is refused, not a crash.
 */
#include "verbs_client.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../last_error.h"
#include "cuobjclient_wrapper.h"
#include "dc_token.h"
#include "gid_select.h"
#include "rdma_core.h"
#include "verbs_settings.h"

typedef struct verbs_mr {
  struct ibv_mr *mr;
  void *addr;
  size_t size;
  struct verbs_mr *next;
} verbs_mr_t;

typedef struct verbs_alloc {
  void *ptr;
  size_t mapped;
  struct verbs_alloc *next;
} verbs_alloc_t;

typedef struct verbs_client {
  const vgw_rdma_core_t *rc;
  struct ibv_context *ctx;
  struct ibv_pd *pd;
  struct ibv_cq *cq;
  struct ibv_srq *srq;
  struct ibv_qp *dct;
  vgw_dc_target_t target;
  pthread_mutex_t mu;
  verbs_mr_t *mrs;
  verbs_alloc_t *allocs;
} verbs_client_t;

static const char *env_lookup(const char *name) { return getenv(name); }

static void teardown(verbs_client_t *c) {
  const vgw_rdma_core_t *rc = c->rc;
  if (c->dct) rc->destroy_qp(c->dct);
  if (c->srq) rc->destroy_srq(c->srq);
  if (c->cq) rc->destroy_cq(c->cq);
  if (c->pd) rc->dealloc_pd(c->pd);
  if (c->ctx) rc->close_device(c->ctx);
}

/* Opens the named device (or the first one); NULL + vgw_fail. Sets s->dev to the name used. */
static struct ibv_context *open_named(const vgw_rdma_core_t *rc, vgw_verbs_settings_t *s) {
  int n = 0;
  struct ibv_device **list = rc->get_device_list(&n);
  if (list == NULL || n == 0) {
    if (list) rc->free_device_list(list);
    /* The settings in the message say which device/port/GID was asked for (and so which of code
     * and environment won), even on a host without RDMA hardware. */
    return vgw_fail_null(-ENODEV,
                         "verbs provider: no RDMA device on this host (ibv_get_device_list found none; wanted %s%s, "
                         "port %u, GID index %d)",
                         s->dev[0] ? "device " : "the first device", s->dev, s->port, s->gid_index);
  }
  struct ibv_device *dev = NULL;
  for (int i = 0; i < n && dev == NULL; i++)
    if (s->dev[0] == '\0' || strcmp(rc->get_device_name(list[i]), s->dev) == 0) dev = list[i];
  struct ibv_context *ctx = NULL;
  if (dev == NULL) {
    vgw_fail(-ENODEV, "verbs provider: RDMA device %s not found (VGWRDMA_RDMA_DEV / dev_name)", s->dev);
  } else if (!rc->mlx5dv_is_supported(dev)) {
    vgw_fail(-ENODEV, "verbs provider: %s is not an mlx5 device (DC transport needs ConnectX-5 or later)",
             rc->get_device_name(dev));
  } else {
    snprintf(s->dev, sizeof s->dev, "%s", rc->get_device_name(dev));
    ctx = rc->open_device(dev);
    if (ctx == NULL) vgw_fail(-ENODEV, "verbs provider: cannot open %s (errno %d)", s->dev, errno);
  }
  rc->free_device_list(list);
  return ctx;
}

/* PD, CQ, SRQ and the DCT, moved to RTR. 0 or negative errno (vgw_fail recorded). */
static int build_dct(verbs_client_t *c, const vgw_verbs_settings_t *s, const struct ibv_port_attr *pa, int gid_index) {
  const vgw_rdma_core_t *rc = c->rc;
  c->pd = rc->alloc_pd(c->ctx);
  c->cq = c->pd ? rc->create_cq(c->ctx, 16, NULL, NULL, 0) : NULL;
  struct ibv_srq_init_attr sa = {.attr = {.max_wr = 1, .max_sge = 1}};
  c->srq = c->cq ? rc->create_srq(c->pd, &sa) : NULL;
  if (c->srq == NULL) return vgw_fail(-ENOMEM, "verbs provider: cannot create PD/CQ/SRQ on %s (errno %d)", s->dev, errno);
  struct ibv_qp_init_attr_ex qa = {.qp_type = IBV_QPT_DRIVER, .send_cq = c->cq, .recv_cq = c->cq, .srq = c->srq,
                                   .comp_mask = IBV_QP_INIT_ATTR_PD, .pd = c->pd};
  struct mlx5dv_qp_init_attr dv = {.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC,
                                   .dc_init_attr = {.dc_type = MLX5DV_DCTYPE_DCT, .dct_access_key = s->dc_key}};
  c->dct = rc->mlx5dv_create_qp(c->ctx, &qa, &dv);
  if (c->dct == NULL) return vgw_fail(-errno ? -errno : -EIO, "verbs provider: cannot create the DC target on %s", s->dev);
  struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = (uint8_t)s->port,
                          .qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC};
  int rc1 = rc->modify_qp(c->dct, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
  memset(&a, 0, sizeof a);
  a.qp_state = IBV_QPS_RTR;
  a.path_mtu = pa->active_mtu;
  a.min_rnr_timer = 12;
  a.ah_attr.port_num = (uint8_t)s->port;
  a.ah_attr.is_global = pa->link_layer == IBV_LINK_LAYER_ETHERNET;
  a.ah_attr.grh.hop_limit = 64;
  a.ah_attr.grh.sgid_index = (uint8_t)gid_index;
  int rc2 = rc1 ? rc1 : rc->modify_qp(c->dct, &a, IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER | IBV_QP_AV | IBV_QP_PATH_MTU);
  if (rc2) return vgw_fail(-(rc2 > 0 ? rc2 : EIO), "verbs provider: cannot bring the DC target of %s to RTR", s->dev);
  c->target.dctn = c->dct->qp_num & 0xffffffu;
  return 0;
}

void *vgw_verbs_client_create(const rdma_host_client_config_t *cfg) {
  char why[512];
  vgw_verbs_settings_t s;
  if (vgw_verbs_settings_resolve(cfg, env_lookup, &s, why, sizeof why) != 0)
    return vgw_fail_null(-EINVAL, "verbs provider: %s", why);
  const vgw_rdma_core_t *rc = vgw_rdma_core();
  if (rc == NULL) return NULL;
  verbs_client_t *c = calloc(1, sizeof *c);
  if (c == NULL) return vgw_fail_null(-ENOMEM, "out of memory");
  c->rc = rc;
  c->ctx = open_named(rc, &s);
  struct ibv_port_attr pa;
  memset(&pa, 0, sizeof pa);
  vgw_gid_choice_t gid;
  union ibv_gid raw;
  int err = c->ctx == NULL ? -ENODEV : 0;
  if (!err && rc->query_port(c->ctx, (uint8_t)s.port, &pa) != 0)
    err = vgw_fail(-ENODEV, "verbs provider: %s has no port %u", s.dev, s.port);
  if (!err && pa.state != IBV_PORT_ACTIVE)
    err = vgw_fail(-ENODEV, "verbs provider: %s port %u is not active (link down?)", s.dev, s.port);
  if (!err && (err = vgw_gid_select(VGW_SYSFS_INFINIBAND, s.dev, s.port, s.gid_index, &gid, why, sizeof why)) != 0)
    vgw_fail(err, "verbs provider: %s", why);
  if (!err && rc->query_gid(c->ctx, (uint8_t)s.port, gid.index, &raw) != 0)
    err = vgw_fail(-ENODEV, "verbs provider: %s port %u GID %d cannot be read", s.dev, s.port, gid.index);
  if (!err) err = build_dct(c, &s, &pa, gid.index);
  if (err) {
    teardown(c);
    free(c);
    return NULL;
  }
  c->target.lid = pa.lid;
  memcpy(c->target.gid, raw.raw, 16);
  pthread_mutex_init(&c->mu, NULL);
  return c;
}

static void client_destroy(void *h) {
  verbs_client_t *c = h;
  while (c->mrs) {
    verbs_mr_t *n = c->mrs->next;
    c->rc->dereg_mr(c->mrs->mr);
    free(c->mrs);
    c->mrs = n;
  }
  while (c->allocs) {
    verbs_alloc_t *n = c->allocs->next;
    munmap(c->allocs->ptr, c->allocs->mapped);
    free(c->allocs);
    c->allocs = n;
  }
  teardown(c);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

static void *client_alloc(void *h, size_t size, uint32_t kind) {
  verbs_client_t *c = h;
  if (kind != CUOBJ_MEMORY_SYSTEM) return vgw_fail_null(-ENOTSUP, "verbs provider: host memory only");
  if (size == 0 || size > RDMA_HOST_MAX_REGION) return vgw_fail_null(-EINVAL, "alloc: size %zu not in 1..4 GiB - 64 KiB", size);
  size_t page = (size_t)sysconf(_SC_PAGESIZE), mapped = (size + page - 1) / page * page;
  verbs_alloc_t *a = malloc(sizeof *a);
  void *p = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (a == NULL || p == MAP_FAILED) {
    free(a);
    if (p != MAP_FAILED) munmap(p, mapped);
    return vgw_fail_null(-ENOMEM, "alloc: cannot map %zu bytes", size);
  }
  *a = (verbs_alloc_t){p, mapped, NULL};
  pthread_mutex_lock(&c->mu);
  a->next = c->allocs;
  c->allocs = a;
  pthread_mutex_unlock(&c->mu);
  return p;
}

static int client_free(void *h, void *ptr) {
  verbs_client_t *c = h;
  pthread_mutex_lock(&c->mu);
  verbs_alloc_t **pp = &c->allocs;
  while (*pp && (*pp)->ptr != ptr) pp = &(*pp)->next;
  verbs_alloc_t *a = *pp;
  int busy = 0;
  for (verbs_mr_t *m = c->mrs; a && m && !busy; m = m->next)
    busy = (char *)m->addr < (char *)a->ptr + a->mapped && (char *)m->addr + m->size > (char *)a->ptr;
  if (a && !busy) *pp = a->next;
  pthread_mutex_unlock(&c->mu);
  if (a == NULL) return vgw_fail(-EINVAL, "free: not allocated by this client");
  if (busy) return vgw_fail(-EBUSY, "free: memory still registered");
  munmap(a->ptr, a->mapped);
  free(a);
  return 0;
}

static void *client_reg(void *h, void *ptr, size_t size, uint32_t kind) {
  verbs_client_t *c = h;
  if (kind != CUOBJ_MEMORY_SYSTEM) return vgw_fail_null(-ENOTSUP, "verbs provider: host memory only");
  if (ptr == NULL || size == 0 || size > RDMA_HOST_MAX_REGION)
    return vgw_fail_null(-EINVAL, "register: NULL pointer or size %zu not in 1..4 GiB - 64 KiB", size);
  verbs_mr_t *m = calloc(1, sizeof *m);
  if (m == NULL) return vgw_fail_null(-ENOMEM, "register: out of memory");
  m->mr = c->rc->reg_mr(c->pd, ptr, size, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
  if (m->mr == NULL) {
    int e = errno;
    free(m);
    return vgw_fail_null(-(e ? e : ENOMEM), "register: ibv_reg_mr of %zu bytes failed", size);
  }
  m->addr = ptr;
  m->size = size;
  pthread_mutex_lock(&c->mu);
  m->next = c->mrs;
  c->mrs = m;
  pthread_mutex_unlock(&c->mu);
  return m;
}

static int client_dereg(void *h, void *mr) {
  verbs_client_t *c = h;
  pthread_mutex_lock(&c->mu);
  verbs_mr_t **pp = &c->mrs;
  while (*pp && *pp != mr) pp = &(*pp)->next;
  verbs_mr_t *m = *pp;
  if (m) *pp = m->next;
  pthread_mutex_unlock(&c->mu);
  if (m == NULL) return vgw_fail(-EINVAL, "deregister: unknown registration");
  int rc = c->rc->dereg_mr(m->mr);
  free(m);
  return rc ? vgw_fail(-(rc > 0 ? rc : EIO), "deregister: ibv_dereg_mr failed") : 0;
}

static uint32_t mr_rkey(const void *mr) { return ((const verbs_mr_t *)mr)->mr->rkey; }
static void *mr_addr(const void *mr) { return ((const verbs_mr_t *)mr)->addr; }
static size_t mr_size(const void *mr) { return ((const verbs_mr_t *)mr)->size; }
static uint32_t mr_kind(const void *mr) {
  (void)mr;
  return CUOBJ_MEMORY_SYSTEM;
}

static int owns_mr(verbs_client_t *c, const verbs_mr_t *mr) {
  pthread_mutex_lock(&c->mu);
  const verbs_mr_t *m = c->mrs;
  while (m && m != mr) m = m->next;
  pthread_mutex_unlock(&c->mu);
  return m != NULL;
}

static int client_token(void *h, void *mr, size_t offset, size_t size, uint32_t op, char *out, size_t cap) {
  verbs_client_t *c = h;
  const verbs_mr_t *m = mr;
  if (out == NULL || !owns_mr(c, m)) return vgw_fail(-EINVAL, "token: unknown registration");
  if (op != CUOBJ_OP_GET && op != CUOBJ_OP_PUT) return vgw_fail(-EINVAL, "token: op %u is not GET/PUT", op);
  vgw_dc_window_t w = {.mr_addr = (uint64_t)(uintptr_t)m->addr, .mr_size = m->size, .rkey = m->mr->rkey,
                       .offset = offset, .size = size};
  int n = vgw_dc_token_build(&c->target, &w, out, cap);
  if (n == -ENOSPC) return vgw_fail(n, "token: buffer of %zu bytes < 82", cap);
  if (n < 0) return vgw_fail(n, "token: [%zu,+%zu) outside the %zu-byte registration or size not in 1..4 GiB-1", offset,
                             size, m->size);
  return n;
}

const vgw_client_ops_t vgw_verbs_client_ops = {
    .name = "verbs", .destroy = client_destroy, .alloc = client_alloc, .free = client_free, .reg = client_reg,
    .dereg = client_dereg, .mr_rkey = mr_rkey, .mr_addr = mr_addr, .mr_size = mr_size, .mr_kind = mr_kind,
    .token = client_token,
};
