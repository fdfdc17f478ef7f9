/*
 * conn_cache.h — the gateway's idle connections to agents, keyed by agent address. A
 * connection is in the cache only while idle; a transfer owns it exclusively, so one
 * connection never carries two requests at once (channels run in parallel on separate ones).
 */
#ifndef SOFTNIC_CONN_CACHE_H
#define SOFTNIC_CONN_CACHE_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "guard.h"

typedef struct snic_conn {
  int fd;
  int direct;         /* cookie proven: same-host path allowed (while guard says so) */
  snic_guard_t guard; /* the proven process: pidfd, credentials, cookie (guard.h) */
  uint32_t ip; /* network order */
  uint16_t port;
  struct snic_conn *next;
} snic_conn_t;

typedef struct snic_conn_cache {
  pthread_mutex_t mu;
  snic_conn_t *idle;
  unsigned n_idle;
} snic_conn_cache_t;

int conn_cache_init(snic_conn_cache_t *c);
void conn_cache_destroy(snic_conn_cache_t *c); /* closes every idle connection */
/* An idle, still-healthy connection to (ip, port), or NULL. Stale ones are closed on the way. */
snic_conn_t *conn_cache_take(snic_conn_cache_t *c, uint32_t ip, uint16_t port);
/* Return a healthy connection for reuse (closed instead when the cache is full). */
void conn_cache_give(snic_conn_cache_t *c, snic_conn_t *conn);
void conn_close(snic_conn_t *conn);

#endif
