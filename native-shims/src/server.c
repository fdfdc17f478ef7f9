/*
 * server.c — cuobj_server ABI: lifecycle, provider choice, host buffers, registrations,
 * channels, argument validation and the synchronous handle_get/put (the async half is in
 * server_async.c). The gateway never moves more than min(token window, request size, buffer).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuobj/server_vendor.h"
#include "last_error.h"
#include "provider.h"
#include "server_impl.h"

#define MIN_FRAME (4u << 10)
#define MAX_FRAME (64u << 20)

uint32_t cuobj_server_abi_version(void) { return VGW_SHIM_ABI_VERSION; }

void cuobj_server_tunables_default(cuobj_rdma_tunables_t *t) {
  if (t == NULL) return;
  memset(t, 0, sizeof *t);
  *t = (cuobj_rdma_tunables_t){
      .struct_size = sizeof *t, .provider = VGW_PROVIDER_SOFTNIC, .num_dcis = 128, .cq_depth = 640,
      .dc_key = 0xffeeddccull, .service_level = 0, .timeout = 16, .hop_limit = 4, .pkey_index = 0,
      .max_sge = 10, .delay_interval = 5000, .delay_mode = 1, .qp_reset_on_failure = 1, .retry_cnt = 7,
      .traffic_class = 96, .max_rd_atomic = 0, .io_timeout_ms = 10000, .connect_timeout_ms = 3000,
      .frame_size = 4u << 20, .allow_direct = 1, .direct_privileged = 0,
  };
}

/* Accept a caller struct of an older (smaller) size: fields it lacks keep their defaults. */
static int load_tunables(const cuobj_rdma_tunables_t *in, cuobj_rdma_tunables_t *out) {
  cuobj_server_tunables_default(out);
  if (in == NULL) return 0;
  if (in->struct_size < offsetof(cuobj_rdma_tunables_t, io_timeout_ms) || in->struct_size > sizeof *out)
    return vgw_fail(-EINVAL, "tunables.struct_size %u is not a known size (expected %zu)", in->struct_size,
                    sizeof *out);
  memcpy(out, in, in->struct_size);
  out->struct_size = sizeof *out;
  if (out->num_dcis == 0 || out->num_dcis >= CUOBJ_CHANNEL_NONE)
    return vgw_fail(-EINVAL, "tunables.num_dcis %u out of 1..65534", out->num_dcis);
  if (out->frame_size < MIN_FRAME || out->frame_size > MAX_FRAME)
    return vgw_fail(-EINVAL, "tunables.frame_size %u out of 4 KiB..64 MiB", out->frame_size);
  if (out->io_timeout_ms == 0 || out->connect_timeout_ms == 0)
    return vgw_fail(-EINVAL, "tunables timeouts must be > 0 (a dead peer must never hang a call)");
  return 0;
}

cuobj_server_t *cuobj_server_create(const char *ip, uint16_t port, uint32_t proto) {
  return cuobj_server_create_with_config(ip, port, proto, NULL);
}

cuobj_server_t *cuobj_server_create_with_config(const char *ip, uint16_t port, uint32_t proto,
                                                const cuobj_rdma_tunables_t *tunables) {
  (void)port; /* softnic initiates every connection; it listens nowhere */
  if (proto != CUOBJ_PROTO_RDMA_DC_V1) return vgw_fail_null(-EINVAL, "proto %u is not CUOBJ_PROTO_RDMA_DC_V1", proto);
  cuobj_rdma_tunables_t tun;
  if (load_tunables(tunables, &tun) != 0) return NULL;
  int built = vgw_shim_provider_built(tun.provider);
  if (built < 0) return vgw_fail_null(-EINVAL, "unknown provider %u", tun.provider);
  if (built == 0) return vgw_fail_null(-ENODEV, "%s", vgw_provider_why_not_built(tun.provider));
  if (tun.provider == VGW_PROVIDER_VERBS) /* provider hook: verbs is a client (DC target) only */
    return vgw_fail_null(-EINVAL, "verbs is a host-client provider; a server uses softnic or cuobj");

  snic_initiator_config_t icfg = {.dc_key = tun.dc_key, .io_timeout_ms = tun.io_timeout_ms,
                                  .connect_timeout_ms = tun.connect_timeout_ms, .frame_size = tun.frame_size,
                                  .allow_direct = tun.allow_direct != 0,
                                  .direct_privileged = tun.direct_privileged != 0};
  icfg.bind.sin_family = AF_INET;
  icfg.bind.sin_addr.s_addr = htonl(INADDR_ANY);
  if (ip != NULL && ip[0] != '\0' && inet_pton(AF_INET, ip, &icfg.bind.sin_addr) != 1)
    return vgw_fail_null(-EINVAL, "ip '%s' is not an IPv4 address", ip);

  cuobj_server_t *s = calloc(1, sizeof *s);
  channel_t *ch = calloc(tun.num_dcis, sizeof *ch);
  if (s == NULL || ch == NULL) {
    free(s);
    free(ch);
    return vgw_fail_null(-ENOMEM, "out of memory creating the server");
  }
  s->provider = tun.provider;
  s->tun = tun;
  s->ch = ch;
  s->n_ch = tun.num_dcis;
  s->efd = -1;
  for (uint32_t i = 0; i < s->n_ch; i++) {
    pthread_cond_init(&s->ch[i].cv, NULL);
    s->ch[i].cancel = (snic_cancel_t){.mu = &s->mu, .fd = -1, .canceled = 0};
  }
  pthread_mutex_init(&s->mu, NULL);
  if (initiator_init(&s->ini, &icfg) != 0 || server_async_init(s) != 0) {
    cuobj_server_destroy(s);
    return vgw_fail_null(-ENOMEM, "cannot create the completion eventfd or connection cache");
  }
  if (vgw_sv_create(s, ip, port, proto) != 0) { /* provider hook: cuobj vendor server */
    cuobj_server_destroy(s);
    return NULL; /* detail recorded by the provider */
  }
  return s;
}

void cuobj_server_destroy(cuobj_server_t *s) {
  if (s == NULL) return;
  server_async_stop(s); /* joins workers: no transfer runs after this */
  vgw_sv_destroy(s);    /* provider hook: cuobj vendor server */
  initiator_destroy(&s->ini);
  while (s->bufs) {
    cuobj_rdma_buffer_t *n = s->bufs->next;
    free(s->bufs);
    s->bufs = n;
  }
  for (uint32_t i = 0; i < s->n_ch; i++) pthread_cond_destroy(&s->ch[i].cv);
  pthread_mutex_destroy(&s->mu);
  free(s->ch);
  free(s);
}

int cuobj_server_is_connected(const cuobj_server_t *s) {
  int v = vgw_sv_is_connected(s); /* provider hook: cuobj vendor server */
  return v >= 0 ? v : s != NULL;
}
uint32_t cuobj_server_provider(const cuobj_server_t *s) { return s ? s->provider : UINT32_MAX; }

/* Host buffers are mmap'd: page aligned, zeroed, and sized so free needs no size from JS. The
 * size is kept in a header page in front of the returned pointer. */
void *cuobj_server_alloc_host_buffer(cuobj_server_t *s, size_t size) {
  long page = sysconf(_SC_PAGESIZE);
  if (size == 0 || size > ((size_t)1 << 40)) return vgw_fail_null(-EINVAL, "host buffer size %zu invalid", size);
  int vendor;
  void *vp = vgw_sv_alloc_host(s, size, &vendor); /* provider hook: cuObjServer::allocHostBuffer */
  if (vendor) return vp;
  size_t total = (size + (size_t)page - 1) / (size_t)page * (size_t)page + (size_t)page;
  uint8_t *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return vgw_fail_null(-ENOMEM, "cannot map %zu bytes", size);
  memcpy(p, &total, sizeof total);
  return p + page;
}

void cuobj_server_free_host_buffer(cuobj_server_t *s, void *ptr) {
  if (ptr == NULL || vgw_sv_free_host(s, ptr)) return; /* provider hook: the vendor's buffers */
  uint8_t *base = (uint8_t *)ptr - sysconf(_SC_PAGESIZE);
  size_t total;
  memcpy(&total, base, sizeof total);
  munmap(base, total);
}

cuobj_rdma_buffer_t *cuobj_server_register_buffer(cuobj_server_t *s, void *ptr, size_t size) {
  if (s == NULL || ptr == NULL || size == 0) return vgw_fail_null(-EINVAL, "register: NULL server/pointer or size 0");
  cuobj_rdma_buffer_t *b = calloc(1, sizeof *b);
  if (b == NULL) return vgw_fail_null(-ENOMEM, "register: out of memory");
  b->ptr = ptr;
  b->size = size;
  if (vgw_sv_register(s, b) != 0) { /* provider hook: cuobj vendor registration */
    free(b);
    return NULL; /* detail recorded by the provider */
  }
  pthread_mutex_lock(&s->mu);
  b->next = s->bufs;
  s->bufs = b;
  pthread_mutex_unlock(&s->mu);
  return b;
}

int cuobj_server_deregister_buffer(cuobj_server_t *s, cuobj_rdma_buffer_t *b) {
  if (s == NULL || b == NULL) return vgw_fail(-EINVAL, "deregister: NULL argument");
  pthread_mutex_lock(&s->mu);
  cuobj_rdma_buffer_t **pp = &s->bufs;
  while (*pp && *pp != b) pp = &(*pp)->next;
  int rc = *pp == NULL ? -EINVAL : b->inflight > 0 ? -EBUSY : 0;
  if (rc == 0) *pp = b->next;
  pthread_mutex_unlock(&s->mu);
  if (rc) return vgw_fail(rc, rc == -EBUSY ? "buffer in use by a transfer" : "buffer not registered here");
  vgw_sv_deregister(s, b); /* provider hook: cuobj vendor registration */
  free(b);
  return 0;
}

uint16_t cuobj_server_allocate_channel(cuobj_server_t *s) {
  if (s == NULL) return CUOBJ_CHANNEL_NONE;
  uint16_t id = CUOBJ_CHANNEL_NONE;
  pthread_mutex_lock(&s->mu);
  for (uint32_t i = 0; i < s->n_ch && id == CUOBJ_CHANNEL_NONE; i++)
    if (!s->ch[i].allocated && vgw_sv_allocate_channel(s, (uint16_t)i) == 0) { /* provider hook */
      s->ch[i].allocated = 1;
      id = (uint16_t)i;
    } else if (!s->ch[i].allocated) {
      break; /* the vendor has no free channel either */
    }
  pthread_mutex_unlock(&s->mu);
  return id;
}

int cuobj_server_free_channel(cuobj_server_t *s, uint16_t channel) {
  if (s == NULL || channel >= s->n_ch) return vgw_fail(-EINVAL, "free_channel: bad channel %u", channel);
  pthread_mutex_lock(&s->mu);
  channel_t *c = &s->ch[channel];
  int rc = !c->allocated ? -EINVAL : c->busy ? -EBUSY : 0;
  if (rc == 0) {
    c->allocated = 0;
    vgw_sv_free_channel(s, channel); /* provider hook: cuobj vendor channel */
  }
  pthread_mutex_unlock(&s->mu);
  return rc ? vgw_fail(rc, "free_channel %u: %s", channel, rc == -EBUSY ? "transfer in flight" : "not allocated") : 0;
}

int cuobj_server_cancel_channel(cuobj_server_t *s, uint16_t channel) {
  if (s == NULL || channel >= s->n_ch) return vgw_fail(-EINVAL, "cancel_channel: bad channel %u", channel);
  if (s->vendor != NULL) return vgw_fail(-EOPNOTSUPP, "cancel_channel: the cuobj provider cannot abort a transfer");
  pthread_mutex_lock(&s->mu);
  channel_t *c = &s->ch[channel];
  int rc = c->allocated ? 0 : -EINVAL;
  if (rc == 0 && c->busy) snic_cancel_fire(&c->cancel);
  pthread_mutex_unlock(&s->mu);
  return rc ? vgw_fail(rc, "cancel_channel %u: not allocated", channel) : 0;
}

static int is_ipv4_mapped(const uint8_t gid[16]) {
  static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  return memcmp(gid, prefix, sizeof prefix) == 0;
}

int server_parse_descr(const char *descr, cuobj_token_t *t) {
  if (descr == NULL) return vgw_fail(-EINVAL, "NULL descriptor");
  int rc = cuobj_token_parse(descr, t);
  if (rc) return vgw_fail(rc, rc == -EPROTONOSUPPORT ? "RC-style token not supported" : "malformed token");
  return 0;
}

/* The fields a caller hands in must be what a parse can produce, so the cuobj provider can always
 * format them back into the vendor's descriptor string. */
static int check_token_fields(const cuobj_token_t *t) {
  if (t->size == 0) return vgw_fail(-EINVAL, "token size field is 0");
  if (t->dctn > 0xffffffu) return vgw_fail(-EINVAL, "token DCTN %u exceeds 24 bits", t->dctn);
  if (t->gid_present > 1 || t->has_override > 1)
    return vgw_fail(-EINVAL, "token gid_present %u / has_override %u must be 0 or 1", t->gid_present, t->has_override);
  return 0;
}

int server_prepare(cuobj_server_t *s, int to_client, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                   uint64_t remote, size_t size, const cuobj_token_t *tok, uint16_t channel, transfer_job_t *job) {
  if (s == NULL || buf == NULL || tok == NULL) return vgw_fail(-EINVAL, "NULL server, buffer or token");
  if (size == 0 || size > CUOBJ_MAX_TRANSFER) return vgw_fail(-EINVAL, "size %zu not in 1..1 GiB", size);
  if (channel >= s->n_ch) return vgw_fail(-EINVAL, "channel %u >= num_dcis %u", channel, s->n_ch);
  cuobj_token_t t = *tok;
  if (!t.has_override) t.override_addr = t.override_size = 0; /* as a parse leaves them */
  int rc = check_token_fields(&t);
  if (rc) return rc;
  uint64_t waddr, wsize;
  cuobj_token_effective(&t, &waddr, &wsize);
  if (remote < waddr || remote - waddr > wsize || size > wsize - (remote - waddr))
    return vgw_fail(-EINVAL, "remote window [%#llx,+%zu) outside the token's [%#llx,+%llu)",
                    (unsigned long long)remote, size, (unsigned long long)waddr, (unsigned long long)wsize);
  if (s->vendor == NULL && (!t.gid_present || !is_ipv4_mapped(t.gid))) /* the vendor routes by GID/DCTN itself */
    return vgw_fail(-EAFNOSUPPORT, "softnic needs an IPv4-mapped GID in the token");
  if (s->vendor == NULL && (t.dctn == 0 || t.dctn > 65535))
    return vgw_fail(-EINVAL, "softnic DCTN %u is not a TCP port", t.dctn);

  pthread_mutex_lock(&s->mu);
  cuobj_rdma_buffer_t *b = s->bufs;
  while (b && b != buf) b = b->next;
  if (b == NULL) rc = -EINVAL;
  else if (local_offset > b->size || size > b->size - local_offset) rc = -ERANGE;
  else if (s->ch[channel].busy || s->stopping) rc = -EBUSY;
  if (rc == 0) {
    s->ch[channel].busy = 1;
    s->ch[channel].cancel.canceled = 0; /* a cancel aimed at the previous transfer is spent */
    b->inflight++;
  }
  pthread_mutex_unlock(&s->mu);
  if (rc == -ERANGE) return vgw_fail(-EINVAL, "local window [%llu,+%zu) outside the registered buffer",
                                     (unsigned long long)local_offset, size);
  if (rc) return vgw_fail(rc, rc == -EBUSY ? "channel %u busy" : "buffer not registered (channel %u)", channel);
  *job = (transfer_job_t){.to_client = to_client, .channel = channel, .buf = buf, .local = buf->ptr + local_offset,
                          .remote = remote, .size = size, .rkey = t.rkey, .agent_port = (uint16_t)t.dctn};
  vgw_sv_prepare(s, &t, job); /* provider hook: canonical token for the vendor call */
  memcpy(&job->agent_ip, t.gid + 12, 4); /* already network order */
  return 0;
}

ssize_t server_execute(cuobj_server_t *s, const transfer_job_t *j) {
  int vendor;
  ssize_t n = vgw_sv_execute(s, j, &vendor); /* provider hook: cuobj vendor transfer */
  if (vendor) return n;
  return initiator_transfer(&s->ini, j->agent_ip, j->agent_port, j->rkey, j->to_client, j->remote, j->local, j->size,
                            &s->ch[j->channel].cancel);
}

void server_finish(cuobj_server_t *s, const transfer_job_t *j) {
  pthread_mutex_lock(&s->mu);
  s->ch[j->channel].busy = 0;
  j->buf->inflight--;
  pthread_mutex_unlock(&s->mu);
}

static ssize_t handle_sync(cuobj_server_t *s, int to_client, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                           uint64_t remote, size_t size, const char *descr, uint16_t channel) {
  transfer_job_t job = {0};
  cuobj_token_t t;
  int rc = server_parse_descr(descr, &t);
  if (rc == 0) rc = server_prepare(s, to_client, buf, local_offset, remote, size, &t, channel, &job);
  if (rc) return rc;
  ssize_t n = server_execute(s, &job);
  server_finish(s, &job);
  return n;
}

ssize_t cuobj_server_handle_get(cuobj_server_t *s, const char *key, cuobj_rdma_buffer_t *buf, uint64_t remote,
                                size_t size, const char *descr, uint16_t channel) {
  (void)key;
  return handle_sync(s, 1, buf, 0, remote, size, descr, channel);
}
ssize_t cuobj_server_handle_put(cuobj_server_t *s, const char *key, cuobj_rdma_buffer_t *buf, uint64_t remote,
                                size_t size, const char *descr, uint16_t channel) {
  (void)key;
  return handle_sync(s, 0, buf, 0, remote, size, descr, channel);
}
ssize_t cuobj_server_handle_get_ex(cuobj_server_t *s, const char *key, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                                   uint64_t remote, size_t size, const char *descr, uint16_t channel) {
  (void)key;
  return handle_sync(s, 1, buf, local_offset, remote, size, descr, channel);
}
ssize_t cuobj_server_handle_put_ex(cuobj_server_t *s, const char *key, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                                   uint64_t remote, size_t size, const char *descr, uint16_t channel) {
  (void)key;
  return handle_sync(s, 0, buf, local_offset, remote, size, descr, channel);
}

int cuobj_server_get_stats(const cuobj_server_t *s, cuobj_server_stats_t *out) {
  if (s == NULL || out == NULL) return -EINVAL;
  const snic_counters_t *c = &s->ini.counters;
  *out = (cuobj_server_stats_t){
      .direct_transfers = atomic_load(&c->direct_transfers), .tcp_transfers = atomic_load(&c->tcp_transfers),
      .direct_bytes = atomic_load(&c->direct_bytes), .tcp_bytes = atomic_load(&c->tcp_bytes),
      .connects = atomic_load(&c->connects), .proofs_ok = atomic_load(&c->proofs_ok),
      .proofs_failed = atomic_load(&c->proofs_failed), .failed_transfers = atomic_load(&c->failed_transfers)};
  return 0;
}

uint64_t cuobj_server_direct_revoked(const cuobj_server_t *s) {
  return s == NULL ? 0 : atomic_load(&s->ini.counters.direct_revoked);
}

int cuobj_server_set_telemetry_flags(uint32_t flags) {
  return vgw_sv_set_telemetry(flags); /* provider hook: cuobj vendor telemetry; softnic ignores it */
}
