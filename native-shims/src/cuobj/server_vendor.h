/*
 * server_vendor.h — internal: the cuobj_server ABI's vendor half. server.c keeps channels,
 * buffers, validation and the async workers for every provider; when the server was created for
 * the cuobj provider, these calls (one marked hook each in server.c) also create / register /
 * allocate on the vendor's cuObjServer, and server_execute hands the transfer to it instead of
 * the softnic initiator. Each returns 0 (or does nothing) for a softnic server.
 */
#ifndef VGW_CUOBJ_SERVER_VENDOR_H
#define VGW_CUOBJ_SERVER_VENDOR_H

#include "../server_impl.h"

/* After the softnic parts exist: create the vendor server for a cuobj server. 0 or -errno. */
int vgw_sv_create(cuobj_server_t *s, const char *ip, uint16_t port, uint32_t proto);
/* After the async workers stopped: deregister vendor buffers, destroy the vendor server. */
void vgw_sv_destroy(cuobj_server_t *s);
int vgw_sv_is_connected(const cuobj_server_t *s); /* -1: not a vendor server */
int vgw_sv_register(cuobj_server_t *s, cuobj_rdma_buffer_t *b);
void vgw_sv_deregister(cuobj_server_t *s, cuobj_rdma_buffer_t *b);
int vgw_sv_allocate_channel(cuobj_server_t *s, uint16_t id);
void vgw_sv_free_channel(cuobj_server_t *s, uint16_t id);
/* Keeps the canonical form of a (parsed, window-checked) token in the job for the vendor. */
void vgw_sv_prepare(const cuobj_server_t *s, const cuobj_token_t *t, transfer_job_t *job);
/* Runs a prepared job on the vendor server; sets *done = 1 when s is a vendor server. */
ssize_t vgw_sv_execute(cuobj_server_t *s, const transfer_job_t *j, int *done);
int vgw_sv_set_telemetry(uint32_t flags);
/* Host buffers of a vendor server come from the vendor (allocHostBuffer) and are remembered so
 * that free_host_buffer (and destroy, for those left) gives them back the vendor's way. */
void *vgw_sv_alloc_host(cuobj_server_t *s, size_t size, int *done); /* *done = 0: not a vendor server */
int vgw_sv_free_host(cuobj_server_t *s, void *ptr);                 /* 1 when ptr was the vendor's */

#endif
