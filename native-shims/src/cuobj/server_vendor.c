/*
 * server_vendor.c — glue between server.c's bookkeeping and the vendor server ops of the cuobj
 * plugin (see server_vendor.h). The vendor gets the canonical 81-character token: the window
 * (override suffix included) was already checked by server_prepare, and remote_buf_start is the
 * absolute client address, as cuObjServer::handleGetObject takes it.
 */
#include "server_vendor.h"

#include <errno.h>
#include <stdlib.h>

#include "../last_error.h"
#include "../provider.h"

int vgw_sv_create(cuobj_server_t *s, const char *ip, uint16_t port, uint32_t proto) {
  if (s->provider != VGW_PROVIDER_CUOBJ) return 0;
  const vgw_plugin_t *p = vgw_provider_cuobj_plugin();
  if (p == NULL) return -ENODEV;
  if (p->server == NULL) return vgw_fail(-ENODEV, "the cuobj plugin of this build has no server (built without cuobjserver.h)");
  s->vendor = p->server;
  s->vsrv = s->vendor->create(ip, port, proto, &s->tun);
  if (s->vsrv == NULL) {
    s->vendor = NULL;
    return -ENODEV;
  }
  return 0;
}

struct vgw_sv_alloc {
  void *ptr;
  struct vgw_sv_alloc *next;
};

void vgw_sv_destroy(cuobj_server_t *s) {
  if (s->vendor == NULL) return;
  while (s->vallocs) { /* host buffers the caller did not free: the vendor's memory, freed its way */
    struct vgw_sv_alloc *n = s->vallocs->next;
    s->vendor->free_host_buffer(s->vsrv, s->vallocs->ptr);
    free(s->vallocs);
    s->vallocs = n;
  }
  for (cuobj_rdma_buffer_t *b = s->bufs; b; b = b->next)
    if (b->vbuf) s->vendor->deregister_buffer(s->vsrv, b->vbuf);
  for (uint32_t i = 0; i < s->n_ch; i++)
    if (s->ch[i].allocated) s->vendor->free_channel(s->vsrv, s->ch[i].vch);
  s->vendor->destroy(s->vsrv);
  s->vendor = NULL;
  s->vsrv = NULL;
}

int vgw_sv_is_connected(const cuobj_server_t *s) {
  return s != NULL && s->vendor != NULL ? s->vendor->is_connected(s->vsrv) : -1;
}

int vgw_sv_register(cuobj_server_t *s, cuobj_rdma_buffer_t *b) {
  if (s->vendor == NULL) return 0;
  b->vbuf = s->vendor->register_buffer(s->vsrv, b->ptr, b->size);
  return b->vbuf ? 0 : -ENOMEM;
}

void vgw_sv_deregister(cuobj_server_t *s, cuobj_rdma_buffer_t *b) {
  if (s->vendor != NULL && b->vbuf != NULL) s->vendor->deregister_buffer(s->vsrv, b->vbuf);
}

int vgw_sv_allocate_channel(cuobj_server_t *s, uint16_t id) {
  if (s->vendor == NULL) return 0;
  int v = s->vendor->allocate_channel(s->vsrv);
  if (v < 0) return v;
  s->ch[id].vch = (uint16_t)v;
  return 0;
}

void vgw_sv_free_channel(cuobj_server_t *s, uint16_t id) {
  if (s->vendor != NULL) s->vendor->free_channel(s->vsrv, s->ch[id].vch);
}

void vgw_sv_prepare(const cuobj_server_t *s, const cuobj_token_t *t, transfer_job_t *job) {
  if (s->vendor == NULL) return;
  cuobj_token_t canon = *t;
  canon.has_override = 0;
  canon.override_addr = canon.override_size = 0;
  /* A token that parsed always formats: the result fits descr exactly. */
  (void)cuobj_token_format(&canon, job->descr, sizeof job->descr);
}

ssize_t vgw_sv_execute(cuobj_server_t *s, const transfer_job_t *j, int *done) {
  *done = s->vendor != NULL;
  if (!*done) return 0;
  uint64_t local_offset = (uint64_t)(j->local - j->buf->ptr);
  return s->vendor->transfer(s->vsrv, j->to_client, "", j->buf->vbuf, local_offset, j->remote, j->size, j->descr,
                             s->ch[j->channel].vch);
}

void *vgw_sv_alloc_host(cuobj_server_t *s, size_t size, int *done) {
  *done = s != NULL && s->vendor != NULL;
  if (!*done) return NULL;
  struct vgw_sv_alloc *rec = malloc(sizeof *rec);
  void *p = rec ? s->vendor->alloc_host_buffer(s->vsrv, size) : NULL;
  if (p == NULL) {
    free(rec);
    return rec ? NULL : vgw_fail_null(-ENOMEM, "out of memory");
  }
  rec->ptr = p;
  pthread_mutex_lock(&s->mu);
  rec->next = s->vallocs;
  s->vallocs = rec;
  pthread_mutex_unlock(&s->mu);
  return p;
}

int vgw_sv_free_host(cuobj_server_t *s, void *ptr) {
  if (s == NULL || s->vendor == NULL) return 0;
  pthread_mutex_lock(&s->mu);
  struct vgw_sv_alloc **pp = &s->vallocs;
  while (*pp && (*pp)->ptr != ptr) pp = &(*pp)->next;
  struct vgw_sv_alloc *rec = *pp;
  if (rec) *pp = rec->next;
  pthread_mutex_unlock(&s->mu);
  if (rec == NULL) return 0; /* not the vendor's: one of ours (mmap), freed by server.c */
  s->vendor->free_host_buffer(s->vsrv, ptr);
  free(rec);
  return 1;
}

int vgw_sv_set_telemetry(uint32_t flags) {
  /* Only load the plugin for a non-zero request: softnic users never pay for a dlopen. */
  if (flags == 0) return 0;
  const vgw_plugin_t *p = vgw_provider_cuobj_plugin();
  return p == NULL || p->server == NULL ? 0 : p->server->set_telemetry(flags);
}
