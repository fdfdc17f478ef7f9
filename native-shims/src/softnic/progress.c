/* progress.c — a registration's progress gate: arm, publish, wait, landed prefix (progress.h). */
#include "progress.h"

#include <errno.h>
#include <poll.h>
#include <time.h>

#define BACKOFF_MIN_NS 16000L  /* 16 µs: a staging chunk takes ~0.1-1 ms */
#define BACKOFF_MAX_NS 250000L /* 250 µs: the most a wait adds after the word passed */

void progress_init(snic_progress_t *p, uint64_t size) {
  atomic_init(&p->word, 0);
  atomic_init(&p->served, 0);
  atomic_init(&p->seen, 0);
  atomic_init(&p->mode, SNIC_PROGRESS_OFF);
  atomic_init(&p->stall_ms, SNIC_PROGRESS_DEFAULT_STALL_MS);
  atomic_init(&p->generation, 0);
  p->size = size;
  p->npending = 0;
  pthread_mutex_init(&p->mu, NULL);
}

void progress_destroy(snic_progress_t *p) { pthread_mutex_destroy(&p->mu); }

int progress_arm(snic_progress_t *p, uint32_t mode, uint32_t stall_ms) {
  if (mode > SNIC_PROGRESS_FAILED) return -EINVAL;
  pthread_mutex_lock(&p->mu);
  /* FAILED keeps the word: it only stops waiters. Any other mode starts a transfer afresh. */
  if (mode != SNIC_PROGRESS_FAILED) {
    atomic_store(&p->word, 0);
    atomic_store(&p->served, 0);
    atomic_store(&p->seen, 0);
    p->npending = 0;
  }
  if (stall_ms) atomic_store(&p->stall_ms, stall_ms);
  atomic_fetch_add(&p->generation, 1);
  atomic_store(&p->mode, mode);
  pthread_mutex_unlock(&p->mu);
  return 0;
}

static void raise_to(_Atomic uint64_t *w, uint64_t v) {
  uint64_t cur = atomic_load(w);
  while (cur < v && !atomic_compare_exchange_weak(w, &cur, v)) {
  }
}

int progress_publish(snic_progress_t *p, uint64_t bytes) {
  if (bytes > p->size) return -ERANGE;
  raise_to(&p->word, bytes);
  return 0;
}

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Sleeps `ns`; with fds, wakes early when one of them has an event: 1 then, else 0. */
static int nap(long ns, int conn_fd, int stop_fd) {
  struct timespec ts = {0, ns};
  if (conn_fd < 0 && stop_fd < 0) {
    nanosleep(&ts, NULL);
    return 0;
  }
  struct pollfd f[2] = {{.fd = conn_fd, .events = POLLIN | POLLRDHUP}, {.fd = stop_fd, .events = POLLIN}};
  int n = ppoll(f, 2, &ts, NULL);
  return n > 0;
}

int progress_wait_staged(snic_progress_t *p, uint64_t off, uint64_t len, int conn_fd, int stop_fd) {
  if (atomic_load_explicit(&p->mode, memory_order_acquire) != SNIC_PROGRESS_UPLOAD) {
    return atomic_load(&p->mode) == SNIC_PROGRESS_FAILED ? -ENODATA : 0;
  }
  uint64_t want = off + len; /* the caller checked [off, off+len) is inside the region */
  uint64_t last = atomic_load_explicit(&p->word, memory_order_acquire);
  int64_t since = now_ms();
  long backoff = BACKOFF_MIN_NS;
  for (;;) {
    uint32_t mode = atomic_load_explicit(&p->mode, memory_order_acquire);
    if (mode == SNIC_PROGRESS_FAILED) return -ENODATA;
    if (mode != SNIC_PROGRESS_UPLOAD) return 0; /* re-armed for another kind of transfer */
    /* seen first, then the word: an honest word read after it is never below it, whatever the
     * other waiters (lanes) raised seen to meanwhile. */
    uint64_t seen = atomic_load(&p->seen);
    uint64_t w = atomic_load(&p->word);
    if (w > p->size || w < seen) return -ENODATA; /* a broken word */
    raise_to(&p->seen, w);
    if (w >= want) return 0;
    if (w != last) {
      last = w;
      since = now_ms();
      backoff = BACKOFF_MIN_NS;
    } else if (now_ms() - since >= (int64_t)atomic_load(&p->stall_ms)) {
      return -ETIME;
    }
    if (nap(backoff, conn_fd, stop_fd)) return -ECONNABORTED;
    if (backoff < BACKOFF_MAX_NS) backoff *= 2;
  }
}

void progress_served(snic_progress_t *p, uint64_t len) { atomic_fetch_add(&p->served, len); }

void progress_landed(snic_progress_t *p, uint64_t off, uint64_t len) {
  if (atomic_load_explicit(&p->mode, memory_order_acquire) != SNIC_PROGRESS_DOWNLOAD) return;
  uint64_t lo = off, hi = off + len;
  pthread_mutex_lock(&p->mu);
  uint64_t prefix = atomic_load(&p->word);
  if (lo > prefix) { /* a gap before it: keep it until the prefix arrives (dropped when full) */
    if (p->npending < SNIC_PROGRESS_PENDING) {
      p->pending_lo[p->npending] = lo;
      p->pending_hi[p->npending++] = hi;
    }
  } else if (hi > prefix) {
    prefix = hi;
    for (int grew = 1; grew;) { /* absorb every pending range the prefix now reaches */
      grew = 0;
      for (unsigned i = 0; i < p->npending; i++) {
        if (p->pending_lo[i] > prefix) continue;
        if (p->pending_hi[i] > prefix) prefix = p->pending_hi[i];
        p->pending_lo[i] = p->pending_lo[p->npending - 1];
        p->pending_hi[i] = p->pending_hi[--p->npending];
        grew = 1;
        break;
      }
    }
    /* Release: the bytes of [0, prefix) were stored before the word says so. */
    atomic_store_explicit(&p->word, prefix, memory_order_release);
  }
  pthread_mutex_unlock(&p->mu);
}

int progress_wait_landed(snic_progress_t *p, uint64_t want, uint32_t generation) {
  uint64_t last = atomic_load_explicit(&p->word, memory_order_acquire);
  int64_t since = now_ms();
  long backoff = BACKOFF_MIN_NS;
  for (;;) {
    if (atomic_load(&p->generation) != generation || atomic_load(&p->mode) != SNIC_PROGRESS_DOWNLOAD)
      return -ECANCELED;
    uint64_t w = atomic_load_explicit(&p->word, memory_order_acquire);
    if (w >= want) return 0;
    if (w != last) {
      last = w;
      since = now_ms();
      backoff = BACKOFF_MIN_NS;
    } else if (now_ms() - since >= (int64_t)atomic_load(&p->stall_ms)) {
      return -ETIME;
    }
    nap(backoff, -1, -1);
    if (backoff < BACKOFF_MAX_NS) backoff *= 2;
  }
}
