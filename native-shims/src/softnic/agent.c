/*
 * agent.c — the agent's lifecycle and accept loop (the per-connection protocol is in
 * agent_conn.c). Stop is cooperative: an eventfd every thread polls, plus shutdown() of each
 * connection socket so a thread blocked in recv/send wakes at once.
 */
#include "agent.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sock.h"

static void reap_finished(snic_agent_t *a, int all) {
  pthread_mutex_lock(&a->mu);
  snic_agent_conn_t **pp = &a->conns;
  while (*pp) {
    snic_agent_conn_t *c = *pp;
    if (all || atomic_load(&c->done)) {
      *pp = c->next;
      pthread_mutex_unlock(&a->mu);
      pthread_join(c->thread, NULL);
      close(c->fd);
      free(c);
      pthread_mutex_lock(&a->mu);
      pp = &a->conns;
    } else {
      pp = &c->next;
    }
  }
  pthread_mutex_unlock(&a->mu);
}

static void *listener_main(void *arg) {
  snic_agent_t *a = arg;
  for (;;) {
    struct pollfd p[2] = {{.fd = a->listen_fd, .events = POLLIN}, {.fd = a->stop_fd, .events = POLLIN}};
    int n = poll(p, 2, 1000);
    if (n < 0 && errno != EINTR) break;
    if (p[1].revents) break;
    reap_finished(a, 0);
    if (n <= 0 || !(p[0].revents & POLLIN)) continue;
    int fd = accept4(a->listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) continue;
    snic_agent_conn_t *c = calloc(1, sizeof *c);
    if (c == NULL) {
      close(fd);
      continue;
    }
    c->agent = a;
    c->fd = fd;
    sock_set_timeouts(fd, a->cfg.io_timeout_ms);
    pthread_mutex_lock(&a->mu);
    if (pthread_create(&c->thread, NULL, agent_conn_main, c) != 0) {
      pthread_mutex_unlock(&a->mu);
      close(fd);
      free(c);
      continue;
    }
    c->next = a->conns;
    a->conns = c;
    pthread_mutex_unlock(&a->mu);
  }
  return NULL;
}

int agent_start(const snic_agent_config_t *cfg, snic_agent_t **out) {
  snic_agent_t *a = calloc(1, sizeof *a);
  if (a == NULL) return -ENOMEM;
  a->cfg = *cfg;
  atomic_store(&a->allow_direct, cfg->allow_direct);
  a->listen_fd = a->stop_fd = -1;
  int rc = -ENOMEM;
  if (pthread_mutex_init(&a->mu, NULL) != 0) goto fail_free;
  if (regions_init(&a->regions) != 0) goto fail_mu;
  /* The cookie lives in its own page so nothing else of ours sits next to what we publish. */
  a->cookie = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (a->cookie == MAP_FAILED) goto fail_regions;
  if (getrandom(a->cookie, SNIC_COOKIE_LEN, 0) != (ssize_t)SNIC_COOKIE_LEN) {
    rc = -EIO;
    goto fail_cookie;
  }
  a->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (a->stop_fd < 0) goto fail_cookie;
  a->listen_fd = sock_listen(&cfg->addr, &a->port);
  if (a->listen_fd < 0) {
    rc = a->listen_fd;
    goto fail_stopfd;
  }
  if (pthread_create(&a->listener, NULL, listener_main, a) != 0) goto fail_listen;
  *out = a;
  return 0;
fail_listen:
  close(a->listen_fd);
fail_stopfd:
  close(a->stop_fd);
fail_cookie:
  munmap(a->cookie, 4096);
fail_regions:
  regions_destroy(&a->regions);
fail_mu:
  pthread_mutex_destroy(&a->mu);
fail_free:
  free(a);
  return rc;
}

void agent_stop(snic_agent_t *a) {
  if (a == NULL) return;
  uint64_t one = 1;
  if (write(a->stop_fd, &one, sizeof one) < 0) { /* cannot fail on a fresh eventfd */ }
  pthread_join(a->listener, NULL);
  pthread_mutex_lock(&a->mu);
  for (snic_agent_conn_t *c = a->conns; c; c = c->next) shutdown(c->fd, SHUT_RDWR);
  pthread_mutex_unlock(&a->mu);
  reap_finished(a, 1);
  close(a->listen_fd);
  close(a->stop_fd);
  explicit_bzero(a->cookie, SNIC_COOKIE_LEN);
  munmap(a->cookie, 4096);
  regions_destroy(&a->regions);
  pthread_mutex_destroy(&a->mu);
  free(a);
}
