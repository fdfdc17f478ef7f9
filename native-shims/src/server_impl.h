/*
 * server_impl.h — internal: the cuobj_server object shared by server.c (lifecycle, buffers,
 * channels, sync transfers) and server_async.c (per-channel workers, completion queue).
 */
#ifndef VGW_SERVER_IMPL_H
#define VGW_SERVER_IMPL_H

#include <pthread.h>

#include "cuobjserver_wrapper.h"
#include "softnic/initiator.h"

struct cuobj_rdma_buffer {
  uint8_t *ptr;
  size_t size;
  uint32_t inflight; /* transfers using it; deregister refuses while > 0 */
  void *vbuf;        /* cuobj provider: the vendor registration (rdma_buffer*); NULL for softnic */
  struct cuobj_rdma_buffer *next;
};

typedef struct completion_node {
  cuobj_async_event_ex_t ev; /* the message is filled on the worker thread when the transfer fails */
  struct completion_node *next;
} completion_node_t;

/* One validated transfer, ready to run on any thread. */
typedef struct transfer_job {
  int to_client; /* 1 = handle_get (RDMA WRITE to the client) */
  uint16_t channel;
  cuobj_rdma_buffer_t *buf;
  uint8_t *local;
  uint64_t remote;
  size_t size;
  uint32_t agent_ip; /* network order */
  uint16_t agent_port;
  uint32_t rkey;
  completion_node_t *done; /* async only: preallocated so a completion can never be lost */
  char descr[CUOBJ_TOKEN_LEN + 1]; /* cuobj provider: canonical token for the vendor call */
} transfer_job_t;

typedef struct channel {
  uint8_t allocated;
  uint8_t busy; /* a transfer (sync or async) owns the channel */
  uint8_t has_job;
  uint8_t has_thread;
  uint16_t vch; /* cuobj provider: the vendor's channel id behind this one */
  snic_cancel_t cancel; /* softnic: lets cuobj_server_cancel_channel abort the running transfer */
  pthread_t thread;
  pthread_cond_t cv;
  transfer_job_t job;
} channel_t;

struct cuobj_server {
  uint32_t provider;
  cuobj_rdma_tunables_t tun;
  snic_initiator_t ini;
  pthread_mutex_t mu; /* guards channels, buffers, stopping */
  channel_t *ch;
  uint32_t n_ch;
  cuobj_rdma_buffer_t *bufs;
  int stopping;
  int efd; /* completion eventfd */
  pthread_mutex_t cq_mu;
  completion_node_t *cq_head, *cq_tail;
  const struct vgw_server_ops *vendor; /* cuobj provider (cuobj/server_vendor.c); NULL = softnic */
  void *vsrv;                          /* the vendor's cuObjServer */
  struct vgw_sv_alloc *vallocs;        /* host buffers from the vendor's allocHostBuffer (guarded by mu) */
};

/* Parse a descriptor string of the string entry points into *t. 0 or negative errno (recorded). */
int server_parse_descr(const char *descr, cuobj_token_t *t);
/* Validate arguments (the token's fields included), take the channel (busy) and the buffer
 * (inflight). 0 or negative errno. */
int server_prepare(cuobj_server_t *s, int to_client, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                   uint64_t remote, size_t size, const cuobj_token_t *t, uint16_t channel, transfer_job_t *job);
/* Run a prepared job (any thread); bytes moved or negative errno. */
ssize_t server_execute(cuobj_server_t *s, const transfer_job_t *job);
/* Release what prepare took. After this the channel accepts the next transfer. */
void server_finish(cuobj_server_t *s, const transfer_job_t *job);

int server_async_init(cuobj_server_t *s);
void server_async_stop(cuobj_server_t *s); /* joins workers, frees queued completions */

#endif
