/* See md5_engine.h. One queue of submissions, a done list, and up to max_threads engine threads
 * (VGW_MD5_THREADS, default a quarter of the cores, 1 to 8), started as the load asks. Each engine
 * thread owns up to L lanes (L = the kernel's width): it fills its free lanes from the queue,
 * hashes STEP_BLOCKS blocks of every occupied lane in one lockstep pass (an idle lane reads a zero
 * page into a scratch state), and hands each finished submission to the done list. A second thread
 * is woken only when the queue holds more submissions than the running threads have free lanes,
 * so the lanes fill before another core is spent. Lock order: g.mu only. */
#include "md5_engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../last_error.h"
#include "md5_lanes.h"

/* Blocks one pass takes from every lane before the lanes are refilled (16 KiB each). */
#define STEP_BLOCKS 256
/* Submissions with fewer whole-block bytes than this are hashed by the caller at once. */
#define INLINE_BYTES 4096

struct vgw_md5mb {
  uint32_t h[4];
  uint8_t tail[64]; /* bytes after the last whole block, hashed once 64 are there or at final */
  size_t tail_len;
  uint64_t total;
  const uint8_t *p; /* the submission the engine holds: its next block, blocks left, tag */
  size_t nblocks;
  uint64_t tag;
  int busy;     /* submitted and not yet reaped (g.mu) */
  int orphaned; /* freed while busy: reap frees it (g.mu) */
  int finished;
  vgw_md5mb_t *next; /* queue or done-list link (g.mu) */
};

typedef struct list {
  vgw_md5mb_t *head, *last;
} list_t;

static struct {
  pthread_mutex_t mu;
  pthread_cond_t work;   /* the queue grew beyond the running threads' free lanes */
  pthread_cond_t reaped; /* the done list is not empty */
  list_t queue, done;
  size_t queued;
  size_t free_lanes; /* free lanes of engine threads that are not idle */
  int threads, idle, max_threads;
} g = {.mu = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER};

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static const uint8_t k_zero_step[STEP_BLOCKS * 64];

static void setup(void) {
  /* reap's deadline runs on the monotonic clock */
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&g.reaped, &attr);
  pthread_condattr_destroy(&attr);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int n = cores > 0 ? (int)(cores / 4) : 1;
  const char *env = getenv("VGW_MD5_THREADS");
  if (env && *env) n = atoi(env);
  g.max_threads = n < 1 ? 1 : n > 8 ? 8 : n;
}

static int pass_lanes(void) {
  int lanes = vgw_md5_lanes();
  return lanes > 0 ? lanes : 1;
}

static void push(list_t *l, vgw_md5mb_t *m) {
  m->next = NULL;
  if (l->last) l->last->next = m;
  else l->head = m;
  l->last = m;
}

static vgw_md5mb_t *pop(list_t *l) {
  vgw_md5mb_t *m = l->head;
  if (!m) return NULL;
  l->head = m->next;
  if (!l->head) l->last = NULL;
  return m;
}

/* One lockstep pass over the occupied lanes: as many blocks as the shortest one has, at most
 * STEP_BLOCKS. Runs without the lock (each occupied lane's stream belongs to this thread). */
static void hash_pass(vgw_md5mb_t **lane, int width, int occupied) {
  const int lanes = width < VGW_MD5_MAX_LANES ? width : VGW_MD5_MAX_LANES;
  size_t n = STEP_BLOCKS;
  for (int l = 0; l < lanes; l++)
    if (lane[l] && lane[l]->nblocks < n) n = lane[l]->nblocks;
  if (occupied == 1 || lanes == 1) {
    for (int l = 0; l < lanes; l++)
      if (lane[l]) vgw_md5_compress(lane[l]->h, lane[l]->p, n);
  } else {
    uint32_t h[VGW_MD5_MAX_LANES][4];
    const uint8_t *p[VGW_MD5_MAX_LANES];
    for (int l = 0; l < lanes; l++) {
      if (lane[l]) memcpy(h[l], lane[l]->h, sizeof h[l]);
      else vgw_md5_init(h[l]);
      p[l] = lane[l] ? lane[l]->p : k_zero_step;
    }
    vgw_md5_compress_lanes(h, p, n);
    for (int l = 0; l < lanes; l++)
      if (lane[l]) memcpy(lane[l]->h, h[l], sizeof h[l]);
  }
  for (int l = 0; l < lanes; l++) {
    if (!lane[l]) continue;
    lane[l]->p += n * 64;
    lane[l]->nblocks -= n;
  }
}

static void *engine_main(void *arg) {
  (void)arg;
  const int lanes = pass_lanes();
  vgw_md5mb_t *lane[VGW_MD5_MAX_LANES] = {0};
  int occupied = 0;
  pthread_mutex_lock(&g.mu);
  for (;;) {
    for (int l = 0; l < lanes && g.queue.head; l++) {
      if (lane[l]) continue;
      lane[l] = pop(&g.queue);
      g.queued--;
      g.free_lanes--;
      occupied++;
    }
    if (occupied == 0) {
      g.free_lanes -= (size_t)lanes;
      g.idle++;
      while (!g.queue.head) pthread_cond_wait(&g.work, &g.mu);
      g.idle--;
      g.free_lanes += (size_t)lanes;
      continue;
    }
    pthread_mutex_unlock(&g.mu);
    hash_pass(lane, lanes, occupied);
    pthread_mutex_lock(&g.mu);
    for (int l = 0; l < lanes; l++) {
      if (!lane[l] || lane[l]->nblocks > 0) continue;
      push(&g.done, lane[l]);
      lane[l] = NULL;
      occupied--;
      g.free_lanes++;
      pthread_cond_broadcast(&g.reaped);
    }
  }
  return NULL;
}

/* Starts one more engine thread (g.mu held); 0 or a positive errno. */
static int start_thread(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  int rc = pthread_create(&t, &attr, engine_main, NULL);
  pthread_attr_destroy(&attr);
  if (rc != 0) return rc;
  g.threads++;
  g.free_lanes += (size_t)pass_lanes();
  return 0;
}

/* Called with g.mu held, after a submission was queued: wakes or starts a thread when the running
 * ones have no free lane for it (a thread that cannot start leaves the work to those running). */
static void provision(void) {
  if (g.queued <= g.free_lanes) return;
  if (g.idle > 0) pthread_cond_signal(&g.work);
  else if (g.threads < g.max_threads) (void)start_thread();
}

int vgw_md5mb_lanes(void) {
  return pass_lanes();
}

vgw_md5mb_t *vgw_md5mb_new(void) {
  pthread_once(&g_once, setup);
  vgw_md5mb_t *m = calloc(1, sizeof *m);
  if (!m) return vgw_fail_null(-ENOMEM, "out of memory for an MD5 stream");
  vgw_md5_init(m->h);
  return m;
}

static int busy(vgw_md5mb_t *m) {
  pthread_mutex_lock(&g.mu);
  int b = m->busy;
  pthread_mutex_unlock(&g.mu);
  return b;
}

int vgw_md5mb_submit(vgw_md5mb_t *m, const void *buf, size_t len, uint64_t tag) {
  if (!m || (!buf && len > 0)) return vgw_fail(-EINVAL, "md5 submit: null argument");
  if (m->finished) return vgw_fail(-EINVAL, "md5 submit after final");
  if (busy(m)) return vgw_fail(-EBUSY, "md5 submit while the stream's previous submission is in flight");
  const uint8_t *p = buf;
  m->total += len;
  if (m->tail_len > 0) {
    size_t take = 64 - m->tail_len < len ? 64 - m->tail_len : len;
    memcpy(m->tail + m->tail_len, p, take);
    m->tail_len += take;
    p += take;
    len -= take;
    if (m->tail_len < 64) return 1;
    vgw_md5_compress(m->h, m->tail, 1);
    m->tail_len = 0;
  }
  size_t nblocks = len / 64, rest = len % 64;
  /* the tail follows the bulk; it is touched again only after this submission is reaped */
  memcpy(m->tail, p + nblocks * 64, rest);
  m->tail_len = rest;
  if (nblocks * 64 < INLINE_BYTES) {
    vgw_md5_compress(m->h, p, nblocks);
    return 1;
  }
  m->p = p;
  m->nblocks = nblocks;
  m->tag = tag;
  pthread_mutex_lock(&g.mu);
  if (g.threads == 0 && start_thread() != 0) {
    /* no engine thread can start: hash here rather than never */
    pthread_mutex_unlock(&g.mu);
    vgw_md5_compress(m->h, p, nblocks);
    return 1;
  }
  m->busy = 1;
  push(&g.queue, m);
  g.queued++;
  provision();
  pthread_mutex_unlock(&g.mu);
  return 0;
}

int vgw_md5mb_reap(uint64_t *tags, int cap, int timeout_ms) {
  if (!tags || cap <= 0) return vgw_fail(-EINVAL, "md5 reap: no room for tags");
  pthread_once(&g_once, setup);
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  if (timeout_ms >= 0) {
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
    }
  }
  pthread_mutex_lock(&g.mu);
  while (!g.done.head) {
    if (timeout_ms < 0) pthread_cond_wait(&g.reaped, &g.mu);
    else if (pthread_cond_timedwait(&g.reaped, &g.mu, &deadline) == ETIMEDOUT) break;
  }
  int n = 0;
  while (n < cap && g.done.head) {
    vgw_md5mb_t *m = pop(&g.done);
    tags[n++] = m->tag;
    m->busy = 0;
    if (m->orphaned) free(m);
  }
  pthread_mutex_unlock(&g.mu);
  return n;
}

static void store_le32(uint8_t *out, uint32_t v) {
  for (int i = 0; i < 4; i++) out[i] = (uint8_t)(v >> (8 * i));
}

int vgw_md5mb_final(vgw_md5mb_t *m, uint8_t *out, size_t cap) {
  if (!m || !out) return vgw_fail(-EINVAL, "md5 final: null argument");
  if (m->finished) return vgw_fail(-EINVAL, "md5 final called twice");
  if (cap < 16) return vgw_fail(-ENOSPC, "md5 needs 16 bytes, %zu given", cap);
  if (busy(m)) return vgw_fail(-EBUSY, "md5 final while a submission is in flight");
  uint8_t pad[128] = {0};
  memcpy(pad, m->tail, m->tail_len);
  pad[m->tail_len] = 0x80;
  size_t blocks = m->tail_len < 56 ? 1 : 2;
  uint64_t bits = m->total * 8;
  for (int i = 0; i < 8; i++) pad[blocks * 64 - 8 + (size_t)i] = (uint8_t)(bits >> (8 * i));
  vgw_md5_compress(m->h, pad, blocks);
  for (int i = 0; i < 4; i++) store_le32(out + 4 * i, m->h[i]);
  m->finished = 1;
  return 16;
}

void vgw_md5mb_free(vgw_md5mb_t *m) {
  if (!m) return;
  pthread_mutex_lock(&g.mu);
  int held = m->busy;
  if (held) m->orphaned = 1;
  pthread_mutex_unlock(&g.mu);
  if (!held) free(m);
}
