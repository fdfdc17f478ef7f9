/*
 * initiator.h — the gateway side of softnic: connects to agents on demand (DC key handshake,
 * cookie proof for the same-host path), caches connections per agent, and moves one transfer
 * over a connection it owns for the duration. Thread-safe: many channels call it at once.
 */
#ifndef SOFTNIC_INITIATOR_H
#define SOFTNIC_INITIATOR_H

#include <netinet/in.h>
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

int initiator_init(snic_initiator_t *in, const snic_initiator_config_t *cfg);
void initiator_destroy(snic_initiator_t *in);

/* Move len bytes between local memory and the agent at (ip, port) (network order / host order):
 * to_client = 1 is an RDMA WRITE (GET), 0 an RDMA READ (PUT). Returns len or a negative errno. */
ssize_t initiator_transfer(snic_initiator_t *in, uint32_t ip, uint16_t port, uint32_t rkey, int to_client,
                           uint64_t remote, void *local, size_t len);

#endif
