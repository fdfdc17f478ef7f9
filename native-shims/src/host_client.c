/*
 * host_client.c — rdma_host_client ABI on the softnic provider: starts the agent, owns the
 * library-allocated memory and the registrations, mints DC v1 tokens that point the gateway at
 * this process (GID = IPv4-mapped agent address, DCTN = agent port, rkey, real address).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "last_error.h"
#include "provider.h"
#include "rdma_host_client_wrapper.h"
#include "host_client_gate.h"
#include "softnic/agent.h"

typedef struct alloc_rec {
  uint8_t *ptr;
  size_t mapped;
  struct alloc_rec *next;
} alloc_rec_t;

struct rdma_host_mr {
  uint32_t rkey;
  uint8_t *addr;
  size_t size;
  struct rdma_host_mr *next;
};

struct rdma_host_client {
  uint32_t provider;
  snic_agent_t *agent;
  uint32_t ip; /* network order, as advertised in tokens */
  pthread_mutex_t mu; /* guards allocs and mrs */
  alloc_rec_t *allocs;
  rdma_host_mr_t *mrs;
};

uint32_t rdma_host_client_abi_version(void) { return VGW_SHIM_ABI_VERSION; }

void rdma_host_client_config_default(rdma_host_client_config_t *cfg) {
  if (cfg == NULL) return;
  memset(cfg, 0, sizeof *cfg);
  cfg->struct_size = sizeof *cfg;
  cfg->provider = VGW_PROVIDER_SOFTNIC;
  cfg->dc_key = 0xffeeddccull;
  cfg->port_num = 1;
  cfg->gid_index = -1; /* verbs: automatic choice (src/verbs/gid_select.h) */
  cfg->allow_direct = 1;
  cfg->io_timeout_ms = 10000;
}

rdma_host_client_t *rdma_host_client_create(const rdma_host_client_config_t *in) {
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  if (in != NULL) {
    if (in->struct_size < offsetof(rdma_host_client_config_t, explicit_fields) || in->struct_size > sizeof cfg)
      return vgw_fail_null(-EINVAL, "config.struct_size %u is not a known size (expected %zu)", in->struct_size,
                           sizeof cfg);
    memcpy(&cfg, in, in->struct_size);
  }
  int built = vgw_shim_provider_built(cfg.provider);
  if (built < 0) return vgw_fail_null(-EINVAL, "unknown provider %u", cfg.provider);
  if (cfg.provider != VGW_PROVIDER_SOFTNIC) return vgw_provider_client_create(&cfg); /* provider hook: verbs, cuobj */
  if (built == 0) return vgw_fail_null(-ENODEV, "%s", vgw_provider_why_not_built(cfg.provider));
  if (cfg.agent_port > 65535) return vgw_fail_null(-EINVAL, "agent_port %u > 65535", cfg.agent_port);
  if (cfg.io_timeout_ms == 0) return vgw_fail_null(-EINVAL, "io_timeout_ms must be > 0");

  snic_agent_config_t acfg = {.dc_key = cfg.dc_key, .allow_direct = cfg.allow_direct != 0,
                              .io_timeout_ms = cfg.io_timeout_ms};
  acfg.addr.sin_family = AF_INET;
  acfg.addr.sin_port = htons((uint16_t)cfg.agent_port);
  const char *ip = cfg.agent_addr && cfg.agent_addr[0] ? cfg.agent_addr : "127.0.0.1";
  if (inet_pton(AF_INET, ip, &acfg.addr.sin_addr) != 1)
    return vgw_fail_null(-EINVAL, "agent_addr '%s' is not an IPv4 address", ip);
  if (acfg.addr.sin_addr.s_addr == htonl(INADDR_ANY))
    return vgw_fail_null(-EINVAL, "agent_addr 0.0.0.0 cannot go in a token: give a concrete address");

  rdma_host_client_t *c = calloc(1, sizeof *c);
  if (c == NULL) return vgw_fail_null(-ENOMEM, "out of memory");
  int rc = agent_start(&acfg, &c->agent);
  if (rc) {
    free(c);
    return vgw_fail_null(rc, "softnic agent cannot listen on %s:%u", ip, cfg.agent_port);
  }
  c->provider = cfg.provider;
  c->ip = acfg.addr.sin_addr.s_addr;
  pthread_mutex_init(&c->mu, NULL);
  return c;
}

void rdma_host_client_destroy(rdma_host_client_t *c) {
  if (c == NULL || vgw_pc_destroy(c)) return; /* provider hook */
  agent_stop(c->agent); /* no gateway request runs after this */
  while (c->mrs) {
    rdma_host_mr_t *n = c->mrs->next;
    free(c->mrs);
    c->mrs = n;
  }
  while (c->allocs) {
    alloc_rec_t *n = c->allocs->next;
    munmap(c->allocs->ptr, c->allocs->mapped);
    free(c->allocs);
    c->allocs = n;
  }
  pthread_mutex_destroy(&c->mu);
  free(c);
}

int rdma_host_client_agent_port(const rdma_host_client_t *c) {
  if (vgw_provider_client_ops(c)) return vgw_fail(-ENOTSUP, "agent_port: softnic only"); /* provider hook */
  return c ? (int)c->agent->port : -EINVAL;
}

int rdma_host_client_set_direct_access(rdma_host_client_t *c, int allow) {
  if (c == NULL) return -EINVAL;
  if (vgw_provider_client_ops(c)) return vgw_fail(-ENOTSUP, "set_direct_access: softnic only"); /* provider hook */
  atomic_store(&c->agent->allow_direct, allow != 0);
  return 0;
}

void *rdma_host_client_alloc(rdma_host_client_t *c, size_t size) {
  VGW_PC_FORWARD(c, alloc(c, size, 0)); /* provider hook (0 = host memory) */
  if (c == NULL || size == 0 || size > RDMA_HOST_MAX_REGION)
    return vgw_fail_null(-EINVAL, "alloc: size %zu not in 1..4 GiB - 64 KiB", size);
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t mapped = (size + page - 1) / page * page;
  alloc_rec_t *rec = malloc(sizeof *rec);
  uint8_t *p = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (rec == NULL || p == MAP_FAILED) {
    free(rec);
    if (p != MAP_FAILED) munmap(p, mapped);
    return vgw_fail_null(-ENOMEM, "alloc: cannot map %zu bytes", size);
  }
  rec->ptr = p;
  rec->mapped = mapped;
  pthread_mutex_lock(&c->mu);
  rec->next = c->allocs;
  c->allocs = rec;
  pthread_mutex_unlock(&c->mu);
  return p;
}

int rdma_host_client_free(rdma_host_client_t *c, void *ptr) {
  VGW_PC_FORWARD(c, free(c, ptr)); /* provider hook */
  if (c == NULL || ptr == NULL) return vgw_fail(-EINVAL, "free: NULL argument");
  pthread_mutex_lock(&c->mu);
  alloc_rec_t **pp = &c->allocs;
  while (*pp && (*pp)->ptr != ptr) pp = &(*pp)->next;
  alloc_rec_t *rec = *pp;
  int rc = rec == NULL ? -EINVAL : regions_overlap(&c->agent->regions, (uintptr_t)rec->ptr, rec->mapped) ? -EBUSY : 0;
  if (rc == 0) *pp = rec->next;
  pthread_mutex_unlock(&c->mu);
  if (rc) return vgw_fail(rc, rc == -EBUSY ? "free: memory still registered" : "free: not allocated by this client");
  munmap(rec->ptr, rec->mapped);
  free(rec);
  return 0;
}

rdma_host_mr_t *rdma_host_client_register(rdma_host_client_t *c, void *ptr, size_t size) {
  void *pmr;
  if (vgw_pc_register(c, ptr, size, 0, &pmr)) return pmr; /* provider hook (0 = host memory) */
  if (c == NULL || ptr == NULL || size == 0 || size > RDMA_HOST_MAX_REGION)
    return vgw_fail_null(-EINVAL, "register: NULL pointer or size %zu not in 1..4 GiB - 64 KiB", size);
  rdma_host_mr_t *mr = calloc(1, sizeof *mr);
  if (mr == NULL) return vgw_fail_null(-ENOMEM, "register: out of memory");
  mr->addr = ptr;
  mr->size = size;
  if (regions_add(&c->agent->regions, (uintptr_t)ptr, size, &mr->rkey) != 0) {
    free(mr);
    return vgw_fail_null(-ENOMEM, "register: out of memory");
  }
  pthread_mutex_lock(&c->mu);
  mr->next = c->mrs;
  c->mrs = mr;
  pthread_mutex_unlock(&c->mu);
  return mr;
}

/* Unlink mr if it belongs to c; 1 when found. */
static int unlink_mr(rdma_host_client_t *c, rdma_host_mr_t *mr) {
  pthread_mutex_lock(&c->mu);
  rdma_host_mr_t **pp = &c->mrs;
  while (*pp && *pp != mr) pp = &(*pp)->next;
  int found = *pp != NULL;
  if (found) *pp = mr->next;
  pthread_mutex_unlock(&c->mu);
  return found;
}

int rdma_host_client_deregister(rdma_host_client_t *c, rdma_host_mr_t *mr) {
  int prc;
  if (vgw_pc_deregister(c, mr, &prc)) return prc; /* provider hook */
  if (c == NULL || mr == NULL || !unlink_mr(c, mr)) return vgw_fail(-EINVAL, "deregister: unknown registration");
  regions_remove(&c->agent->regions, mr->rkey); /* waits for in-flight gateway requests */
  free(mr);
  return 0;
}

uint32_t rdma_host_mr_rkey(const rdma_host_mr_t *mr) {
  VGW_PC_FORWARD(mr, mr_rkey(mr)); /* provider hook */
  return mr ? mr->rkey : 0;
}
void *rdma_host_mr_addr(const rdma_host_mr_t *mr) {
  VGW_PC_FORWARD(mr, mr_addr(mr)); /* provider hook */
  return mr ? mr->addr : NULL;
}
size_t rdma_host_mr_size(const rdma_host_mr_t *mr) {
  VGW_PC_FORWARD(mr, mr_size(mr)); /* provider hook */
  return mr ? mr->size : 0;
}

int rdma_host_client_token(rdma_host_client_t *c, rdma_host_mr_t *mr, size_t offset, size_t size, uint32_t op,
                           char *out, size_t cap) {
  VGW_PC_FORWARD(c, token(c, mr, offset, size, op, out, cap)); /* provider hook */
  if (c == NULL || mr == NULL || out == NULL) return vgw_fail(-EINVAL, "token: NULL argument");
  if (op != CUOBJ_OP_GET && op != CUOBJ_OP_PUT) return vgw_fail(-EINVAL, "token: op %u is not GET/PUT", op);
  if (cap < CUOBJ_TOKEN_LEN + 1) return vgw_fail(-ENOSPC, "token: buffer of %zu bytes < 82", cap);
  pthread_mutex_lock(&c->mu);
  rdma_host_mr_t *m = c->mrs;
  while (m && m != mr) m = m->next;
  int known = m != NULL;
  pthread_mutex_unlock(&c->mu);
  if (!known) return vgw_fail(-EINVAL, "token: unknown registration");
  if (size == 0 || size > UINT32_MAX || offset > mr->size || size > mr->size - offset)
    return vgw_fail(-EINVAL, "token: [%zu,+%zu) outside the %zu-byte registration or size not in 1..4 GiB-1",
                    offset, size, mr->size);
  cuobj_token_t t = {.addr = (uint64_t)(uintptr_t)(mr->addr + offset), .size = (uint32_t)size, .rkey = mr->rkey,
                     .lid = 0, .gid_present = 1, .dctn = c->agent->port};
  t.gid[10] = t.gid[11] = 0xff;
  memcpy(t.gid + 12, &c->ip, 4);
  return cuobj_token_format(&t, out, cap);
}

/* ---- ABI 1.9: progress gates (softnic/progress.h) ---- */

/* mr's gate when mr is a softnic registration of c; NULL (and a message) otherwise. */
static snic_progress_t *gate_of(rdma_host_client_t *c, rdma_host_mr_t *mr) {
  if (c == NULL || mr == NULL) return vgw_fail_null(-EINVAL, "progress: NULL argument");
  if (vgw_provider_client_ops(c))
    return vgw_fail_null(-ENOTSUP, "progress gates need the softnic provider (its agent gates the gateway)");
  pthread_mutex_lock(&c->mu);
  rdma_host_mr_t *m = c->mrs;
  while (m && m != mr) m = m->next;
  pthread_mutex_unlock(&c->mu);
  if (m == NULL) return vgw_fail_null(-EINVAL, "progress: unknown registration");
  return regions_progress(&c->agent->regions, mr->rkey);
}

snic_progress_t *vgw_host_mr_gate(rdma_host_client_t *c, rdma_host_mr_t *mr) { return gate_of(c, mr); }

int rdma_host_client_progress_arm(rdma_host_client_t *c, rdma_host_mr_t *mr, uint32_t mode, uint32_t stall_ms) {
  snic_progress_t *p = gate_of(c, mr);
  if (p == NULL) return vgw_shim_last_error(NULL, 0);
  if (progress_arm(p, mode, stall_ms) != 0) return vgw_fail(-EINVAL, "progress_arm: unknown mode %u", mode);
  return 0;
}

int rdma_host_client_progress_publish(rdma_host_client_t *c, rdma_host_mr_t *mr, uint64_t bytes) {
  snic_progress_t *p = gate_of(c, mr);
  if (p == NULL) return vgw_shim_last_error(NULL, 0);
  if (progress_publish(p, bytes) != 0)
    return vgw_fail(-ERANGE, "progress_publish: %llu bytes is past the %zu-byte registration",
                    (unsigned long long)bytes, mr->size);
  return 0;
}

int64_t rdma_host_client_progress(rdma_host_client_t *c, rdma_host_mr_t *mr) {
  snic_progress_t *p = gate_of(c, mr);
  if (p == NULL) return vgw_shim_last_error(NULL, 0);
  return (int64_t)atomic_load_explicit(&p->word, memory_order_acquire);
}

int64_t rdma_host_client_progress_served(rdma_host_client_t *c, rdma_host_mr_t *mr) {
  snic_progress_t *p = gate_of(c, mr);
  if (p == NULL) return vgw_shim_last_error(NULL, 0);
  return (int64_t)atomic_load(&p->served);
}

uint64_t *rdma_host_client_progress_word(rdma_host_client_t *c, rdma_host_mr_t *mr) {
  snic_progress_t *p = gate_of(c, mr);
  return p ? (uint64_t *)&p->word : NULL;
}
