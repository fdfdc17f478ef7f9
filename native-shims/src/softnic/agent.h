/*
 * agent.h — the softnic agent: runs inside the CLIENT process, listens on a TCP address and
 * serves the gateway's READ/WRITE (and same-host DIRECT_BEGIN/END) requests on registered
 * regions only. One thread accepts; one thread serves each gateway connection.
 */
#ifndef SOFTNIC_AGENT_H
#define SOFTNIC_AGENT_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "regions.h"
#include "wire.h"

typedef struct snic_agent_config {
  struct sockaddr_in addr; /* where to listen; port 0 = ephemeral */
  uint64_t dc_key;
  int allow_direct;
  uint32_t io_timeout_ms;
} snic_agent_config_t;

typedef struct snic_agent_conn snic_agent_conn_t;

typedef struct snic_agent {
  snic_agent_config_t cfg;
  atomic_int allow_direct;
  int listen_fd;
  int stop_fd; /* eventfd: readable once stop begins; every thread polls it */
  uint16_t port;
  pthread_t listener;
  pthread_mutex_t mu; /* guards conns */
  snic_agent_conn_t *conns;
  uint8_t *cookie; /* SNIC_COOKIE_LEN random bytes in their own page; read back by the gateway */
  snic_regions_t regions;
} snic_agent_t;

/* Start listening and serving; -EADDRINUSE etc. from bind, -ENOMEM. */
int agent_start(const snic_agent_config_t *cfg, snic_agent_t **out);
/* Stop accepting, drop every connection, join every thread, free everything. */
void agent_stop(snic_agent_t *a);

/* Per-connection service (agent_conn.c); runs on its own thread. */
struct snic_agent_conn {
  snic_agent_t *agent;
  int fd;
  int proven;         /* cookie read back correctly: DIRECT_BEGIN allowed */
  int direct_offered; /* we sent our cookie address in AUTH_ACK */
  atomic_int done;    /* thread finished; the listener may join it */
  pthread_t thread;
  snic_agent_conn_t *next;
};
void *agent_conn_main(void *arg);

#endif
