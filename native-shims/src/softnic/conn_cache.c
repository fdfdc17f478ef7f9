/* conn_cache.c — idle agent connections (see conn_cache.h). */
#include "conn_cache.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "sock.h"

#define CACHE_MAX_IDLE 256u

int conn_cache_init(snic_conn_cache_t *c) {
  c->idle = NULL;
  c->n_idle = 0;
  return pthread_mutex_init(&c->mu, NULL) == 0 ? 0 : -ENOMEM;
}

void conn_close(snic_conn_t *conn) {
  if (conn == NULL) return;
  guard_release(&conn->guard);
  close(conn->fd);
  free(conn);
}

void conn_cache_destroy(snic_conn_cache_t *c) {
  snic_conn_t *n = c->idle;
  while (n) {
    snic_conn_t *next = n->next;
    conn_close(n);
    n = next;
  }
  c->idle = NULL;
  pthread_mutex_destroy(&c->mu);
}

snic_conn_t *conn_cache_take(snic_conn_cache_t *c, uint32_t ip, uint16_t port) {
  for (;;) {
    snic_conn_t *found = NULL;
    pthread_mutex_lock(&c->mu);
    for (snic_conn_t **pp = &c->idle; *pp; pp = &(*pp)->next)
      if ((*pp)->ip == ip && (*pp)->port == port) {
        found = *pp;
        *pp = found->next;
        c->n_idle--;
        break;
      }
    pthread_mutex_unlock(&c->mu);
    if (found == NULL) return NULL;
    /* An idle connection must be silent; readable means the agent closed or is gone. */
    if (!sock_is_stale(found->fd)) return found;
    conn_close(found);
  }
}

void conn_cache_give(snic_conn_cache_t *c, snic_conn_t *conn) {
  pthread_mutex_lock(&c->mu);
  if (c->n_idle >= CACHE_MAX_IDLE) {
    pthread_mutex_unlock(&c->mu);
    conn_close(conn);
    return;
  }
  conn->next = c->idle;
  c->idle = conn;
  c->n_idle++;
  pthread_mutex_unlock(&c->mu);
}
