/*
 * initiator.h — the gateway side of softnic: connects to agents on demand (DC key handshake,
 * cookie proof for the same-host path), caches connections per agent, and moves one transfer
 * over a connection it owns for the duration. Thread-safe: many channels call it at once.
 */
#ifndef SOFTNIC_INITIATOR_H
#define SOFTNIC_INITIATOR_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "conn_cache.h"

typedef struct snic_initiator_config {
  struct sockaddr_in bind; /* sin_addr INADDR_ANY = no explicit bind */
  uint64_t dc_key;
  uint32_t io_timeout_ms;
  uint32_t connect_timeout_ms;
  uint32_t frame_size;
  int allow_direct;
  int direct_privileged; /* opt-in: direct path even when we are more privileged than the client */
} snic_initiator_config_t;

typedef struct snic_counters {
  atomic_uint_fast64_t direct_transfers, tcp_transfers, direct_bytes, tcp_bytes;
  atomic_uint_fast64_t connects, proofs_ok, proofs_failed, failed_transfers;
  atomic_uint_fast64_t direct_revoked; /* proven connections switched to TCP by the guard */
} snic_counters_t;

typedef struct snic_initiator {
  snic_initiator_config_t cfg;
  snic_conn_cache_t cache;
  snic_counters_t counters;
} snic_initiator_t;

/* Lets another thread abort a transfer in progress (the gateway's transfer deadline): the
 * transfer publishes the agent socket it uses while it moves data, and snic_cancel_fire() shuts
 * that socket down, so a send/recv blocked on a slow agent returns at once and the transfer ends
 * with -ECANCELED. fd and canceled are guarded by *mu (the server's lock). */
typedef struct snic_cancel {
  pthread_mutex_t *mu;
  int fd;       /* the socket of the running transfer, -1 when none */
  int canceled; /* set by snic_cancel_fire, cleared when a transfer is prepared */
} snic_cancel_t;

/* Marks the transfer canceled and shuts its socket down. The caller holds *cx->mu. */
void snic_cancel_fire(snic_cancel_t *cx);

int initiator_init(snic_initiator_t *in, const snic_initiator_config_t *cfg);
void initiator_destroy(snic_initiator_t *in);

/* Move len bytes between local memory and the agent at (ip, port) (network order / host order):
 * to_client = 1 is an RDMA WRITE (GET), 0 an RDMA READ (PUT). Returns len or a negative errno
 * (-ECANCELED when cx was fired before or during the move). cx may be NULL. */
ssize_t initiator_transfer(snic_initiator_t *in, uint32_t ip, uint16_t port, uint32_t rkey, int to_client,
                           uint64_t remote, void *local, size_t len, snic_cancel_t *cx);

#endif
