/*
 * server_async.c — async submits: each channel gets its own native worker thread (started on
 * the channel's first submit), so transfers on different channels overlap and none runs on the
 * Node event loop or the libuv pool. Completions go to a queue; an eventfd signals it.
 * Invariant: the channel is released (server_finish) BEFORE its completion becomes visible, so
 * a caller reacting to a completion can submit on the same channel at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "last_error.h"
#include "server_impl.h"

static void signal_efd(cuobj_server_t *s) {
  uint64_t one = 1;
  if (write(s->efd, &one, sizeof one) < 0) { /* counter overflow only; the fd stays readable */ }
}

static void push_completion(cuobj_server_t *s, completion_node_t *n) {
  n->next = NULL;
  pthread_mutex_lock(&s->cq_mu);
  if (s->cq_tail) s->cq_tail->next = n;
  else s->cq_head = n;
  s->cq_tail = n;
  pthread_mutex_unlock(&s->cq_mu);
  signal_efd(s);
}

typedef struct worker_arg {
  cuobj_server_t *s;
  uint16_t channel;
} worker_arg_t;

static void *worker_main(void *arg) {
  worker_arg_t wa = *(worker_arg_t *)arg;
  free(arg);
  cuobj_server_t *s = wa.s;
  channel_t *c = &s->ch[wa.channel];
  for (;;) {
    pthread_mutex_lock(&s->mu);
    while (!c->has_job && !s->stopping) pthread_cond_wait(&c->cv, &s->mu);
    if (!c->has_job) { /* stopping and idle */
      pthread_mutex_unlock(&s->mu);
      return NULL;
    }
    transfer_job_t job = c->job;
    c->has_job = 0;
    pthread_mutex_unlock(&s->mu);

    vgw_clear_error(); /* whatever this thread recorded before is not this transfer's */
    ssize_t n = server_execute(s, &job);
    server_finish(s, &job);
    job.done->ev.status = n;
    if (n < 0) (void)vgw_shim_last_error(job.done->ev.message, sizeof job.done->ev.message);
    push_completion(s, job.done);
  }
}

static int submit(cuobj_server_t *s, int to_client, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                  uint64_t remote, size_t size, const cuobj_token_t *t, uint16_t channel, uint64_t tag) {
  completion_node_t *done = calloc(1, sizeof *done);
  if (done == NULL) return vgw_fail(-ENOMEM, "submit: out of memory");
  done->ev.user_tag = tag;
  transfer_job_t job = {0};
  int rc = server_prepare(s, to_client, buf, local_offset, remote, size, t, channel, &job);
  if (rc) {
    free(done);
    return rc;
  }
  job.done = done;
  pthread_mutex_lock(&s->mu);
  channel_t *c = &s->ch[channel];
  if (!c->has_thread) {
    worker_arg_t *wa = malloc(sizeof *wa);
    if (wa != NULL) *wa = (worker_arg_t){s, channel};
    if (wa == NULL || pthread_create(&c->thread, NULL, worker_main, wa) != 0) {
      free(wa);
      pthread_mutex_unlock(&s->mu);
      server_finish(s, &job);
      free(done);
      return vgw_fail(-ENOMEM, "submit: cannot start the worker of channel %u", channel);
    }
    c->has_thread = 1;
  }
  c->job = job;
  c->has_job = 1;
  pthread_cond_signal(&c->cv);
  pthread_mutex_unlock(&s->mu);
  return 0;
}

int cuobj_server_submit_get(cuobj_server_t *s, const char *key, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                            uint64_t remote, size_t size, const char *descr, uint16_t channel, uint64_t tag) {
  (void)key;
  cuobj_token_t t;
  int rc = server_parse_descr(descr, &t);
  return rc ? rc : submit(s, 1, buf, local_offset, remote, size, &t, channel, tag);
}

int cuobj_server_submit_put(cuobj_server_t *s, const char *key, cuobj_rdma_buffer_t *buf, uint64_t local_offset,
                            uint64_t remote, size_t size, const char *descr, uint16_t channel, uint64_t tag) {
  (void)key;
  cuobj_token_t t;
  int rc = server_parse_descr(descr, &t);
  return rc ? rc : submit(s, 0, buf, local_offset, remote, size, &t, channel, tag);
}

int cuobj_server_submit_get_fields(cuobj_server_t *s, cuobj_rdma_buffer_t *buf, uint64_t local_offset, uint64_t remote,
                                   size_t size, const cuobj_token_t *t, uint16_t channel, uint64_t tag) {
  return submit(s, 1, buf, local_offset, remote, size, t, channel, tag);
}

int cuobj_server_submit_put_fields(cuobj_server_t *s, cuobj_rdma_buffer_t *buf, uint64_t local_offset, uint64_t remote,
                                   size_t size, const cuobj_token_t *t, uint16_t channel, uint64_t tag) {
  return submit(s, 0, buf, local_offset, remote, size, t, channel, tag);
}

int cuobj_server_completion_fd(cuobj_server_t *s) { return s ? s->efd : -EINVAL; }

/* Moves up to max queued completions out: into ex (with messages) or plain (without). */
static int poll_queue(cuobj_server_t *s, cuobj_async_event_t *plain, cuobj_async_event_ex_t *ex, int max_events) {
  uint64_t drained;
  /* Reset the eventfd BEFORE draining: a completion pushed after our drain re-signals it. */
  if (read(s->efd, &drained, sizeof drained) < 0) { /* EAGAIN: nothing signalled, queue may still hold items */ }
  int n = 0;
  pthread_mutex_lock(&s->cq_mu);
  while (n < max_events && s->cq_head) {
    completion_node_t *node = s->cq_head;
    s->cq_head = node->next;
    if (s->cq_head == NULL) s->cq_tail = NULL;
    if (ex != NULL) ex[n] = node->ev;
    else plain[n] = (cuobj_async_event_t){.user_tag = node->ev.user_tag, .status = node->ev.status};
    n++;
    free(node);
  }
  int left = s->cq_head != NULL;
  pthread_mutex_unlock(&s->cq_mu);
  if (left) signal_efd(s);
  return n;
}

int cuobj_server_poll_completions(cuobj_server_t *s, cuobj_async_event_t *events, int max_events) {
  if (s == NULL || events == NULL || max_events <= 0) return -EINVAL;
  return poll_queue(s, events, NULL, max_events);
}

int cuobj_server_poll_completions_ex(cuobj_server_t *s, cuobj_async_event_ex_t *events, int max_events) {
  if (s == NULL || events == NULL || max_events <= 0) return -EINVAL;
  return poll_queue(s, NULL, events, max_events);
}

int server_async_init(cuobj_server_t *s) {
  s->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (s->efd < 0) return -errno;
  if (pthread_mutex_init(&s->cq_mu, NULL) != 0) {
    close(s->efd);
    s->efd = -1;
    return -ENOMEM;
  }
  return 0;
}

void server_async_stop(cuobj_server_t *s) {
  if (s->efd < 0) return;
  pthread_mutex_lock(&s->mu);
  s->stopping = 1;
  for (uint32_t i = 0; i < s->n_ch; i++) pthread_cond_broadcast(&s->ch[i].cv);
  pthread_mutex_unlock(&s->mu);
  for (uint32_t i = 0; i < s->n_ch; i++)
    if (s->ch[i].has_thread) pthread_join(s->ch[i].thread, NULL);
  while (s->cq_head) {
    completion_node_t *n = s->cq_head->next;
    free(s->cq_head);
    s->cq_head = n;
  }
  pthread_mutex_destroy(&s->cq_mu);
  close(s->efd);
  s->efd = -1;
}
