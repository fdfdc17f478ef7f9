/* test_progress.c — progress gates (ABI 1.9, softnic/progress.h) against a real gateway-side
 * initiator in this process, on the direct and the TCP path: an upload whose bytes appear
 * chunk by chunk while the gateway already reads (no byte read early, the reads really
 * overlapped the filling), the stall timeout, a hostile word (going backwards, past the size),
 * FAILED, the landed prefix of a download written out of order, and overlapped GPU staging both
 * ways over the fake CUDA runtime. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "cuobjclient_wrapper.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_cuda.h"
#include "harness_softnic.h"

#define CHUNK (1u << 20)
#define NCHUNK 8u
#define REGION (CHUNK * NCHUNK)

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

typedef struct filler {
  rig_t *rig;
  atomic_uint published; /* chunks published so far */
} filler_t;

/* The client's "staging": writes each chunk's final bytes, then publishes it, with a pause. */
static void *fill_slowly(void *arg) {
  filler_t *f = arg;
  for (unsigned i = 0; i < NCHUNK; i++) {
    sleep_ms(20);
    test_fill(rig_region(f->rig) + (size_t)i * CHUNK, CHUNK, 100 + i);
    CHECK_EQ_INT(rdma_host_client_progress_publish(f->rig->cli, f->rig->mr, (uint64_t)(i + 1) * CHUNK), 0);
    atomic_store(&f->published, i + 1);
  }
  return NULL;
}

static void progressive_upload(int direct) {
  rig_t r;
  rig_open(&r, direct, REGION, REGION);
  memset(rig_region(&r), 0xee, REGION); /* what an early read would see */
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_UPLOAD, 3000), 0);
  filler_t f = {&r, 0};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, fill_slowly, &f) == 0);
  char tok[TOKEN_CAP];
  mint(r.cli, r.mr, 0, REGION, CUOBJ_OP_PUT, tok);
  uint64_t base = (uint64_t)(uintptr_t)rig_region(&r);
  unsigned published_at_first = 0;
  for (unsigned i = 0; i < NCHUNK; i++) { /* the gateway reads chunk by chunk, as its slices do */
    size_t off = (size_t)i * CHUNK;
    CHECK_EQ_INT(cuobj_server_handle_put_ex(r.srv, "k", r.sbuf, off, base + off, CHUNK, tok, 0), CHUNK);
    if (i == 0) published_at_first = atomic_load(&f.published);
    /* the agent counts a TCP READ after its last frame went out: it may trail by one */
    CHECK(rdma_host_client_progress_served(r.cli, r.mr) >= (int64_t)i * CHUNK);
    uint8_t want[64];
    test_fill(want, sizeof want, 100 + i);
    CHECK(memcmp(r.smem + off, want, sizeof want) == 0); /* never the 0xee of unstaged bytes */
  }
  pthread_join(t, NULL);
  for (unsigned i = 0; i < NCHUNK; i++) {
    uint8_t *want = malloc(CHUNK);
    test_fill(want, CHUNK, 100 + i);
    CHECK(memcmp(r.smem + (size_t)i * CHUNK, want, CHUNK) == 0);
    free(want);
  }
  CHECK(published_at_first >= 1);      /* it waited for chunk 0 ... */
  CHECK(published_at_first < NCHUNK); /* ... and not for the whole buffer: the reads overlapped */
  cuobj_server_stats_t st = stats_of(r.srv);
  CHECK_EQ_INT(direct ? st.direct_transfers : st.tcp_transfers, NCHUNK);
  rig_close(&r);
}
static void direct_progressive_upload(void) { progressive_upload(1); }
static void tcp_progressive_upload(void) { progressive_upload(0); }

/* Lanes: every chunk's READ is submitted at once on its own channel, all waiting in the agent
 * (one thread per gateway connection) while the chunks are published one by one; every one
 * completes with its final bytes, three rounds on the same connections. */
static void concurrent_lanes(int direct) {
  rig_t r;
  rig_open(&r, direct, REGION, REGION);
  for (int round = 0; round < 3; round++) {
    memset(rig_region(&r), 0xee, REGION);
    memset(r.smem, 0, REGION);
    CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_UPLOAD, 3000), 0);
    char tok[TOKEN_CAP];
    mint(r.cli, r.mr, 0, REGION, CUOBJ_OP_PUT, tok);
    uint64_t base = (uint64_t)(uintptr_t)rig_region(&r);
    uint16_t ch[NCHUNK];
    for (unsigned i = 0; i < NCHUNK; i++) {
      ch[i] = cuobj_server_allocate_channel(r.srv);
      size_t off = (size_t)i * CHUNK;
      CHECK_EQ_INT(cuobj_server_submit_put(r.srv, "k", r.sbuf, off, base + off, CHUNK, tok, ch[i], i), 0);
    }
    filler_t f = {&r, 0};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, fill_slowly, &f) == 0);
    for (unsigned done = 0; done < NCHUNK;) {
      struct pollfd pf = {.fd = cuobj_server_completion_fd(r.srv), .events = POLLIN};
      CHECK(poll(&pf, 1, 10000) == 1);
      cuobj_async_event_t ev[NCHUNK];
      int n = cuobj_server_poll_completions(r.srv, ev, NCHUNK);
      for (int k = 0; k < n; k++) CHECK_EQ_INT(ev[k].status, CHUNK);
      done += (unsigned)(n > 0 ? n : 0);
    }
    pthread_join(t, NULL);
    CHECK(memcmp(r.smem, rig_region(&r), REGION) == 0);
    for (unsigned i = 0; i < NCHUNK; i++) CHECK_EQ_INT(cuobj_server_free_channel(r.srv, ch[i]), 0);
  }
  rig_close(&r);
}
static void direct_concurrent_lanes(void) { concurrent_lanes(1); }
static void tcp_concurrent_lanes(void) { concurrent_lanes(0); }

static ssize_t read_chunk(rig_t *r, unsigned i) {
  char tok[TOKEN_CAP];
  mint(r->cli, r->mr, 0, REGION, CUOBJ_OP_PUT, tok);
  uint64_t base = (uint64_t)(uintptr_t)rig_region(r);
  size_t off = (size_t)i * CHUNK;
  return cuobj_server_handle_put_ex(r->srv, "k", r->sbuf, off, base + off, CHUNK, tok, 0);
}

static void stall_and_hostile(int direct) {
  rig_t r;
  rig_open(&r, direct, REGION, REGION);
  char msg[256];
  /* Never advancing: refused after the stall timeout, with the reason; the connection and the
   * gateway buffer stay usable (next transfer below). */
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_UPLOAD, 150), 0);
  CHECK_EQ_INT(read_chunk(&r, 0), -ETIME);
  vgw_shim_last_error(msg, sizeof msg);
  CHECK(strstr(msg, "staging stalled") != NULL);
  /* Published up to 1 chunk: chunk 0 passes, chunk 1 stalls. */
  CHECK_EQ_INT(rdma_host_client_progress_publish(r.cli, r.mr, CHUNK), 0);
  CHECK_EQ_INT(read_chunk(&r, 0), CHUNK);
  CHECK_EQ_INT(read_chunk(&r, 1), -ETIME);
  /* publish never lowers the word and refuses past the size */
  CHECK_EQ_INT(rdma_host_client_progress_publish(r.cli, r.mr, 0), 0);
  CHECK_EQ_INT(rdma_host_client_progress(r.cli, r.mr), CHUNK);
  CHECK_EQ_INT(rdma_host_client_progress_publish(r.cli, r.mr, REGION + 1ull), -ERANGE);
  /* A word stored directly that goes backwards, or past the size: refused at once. */
  uint64_t *w = rdma_host_client_progress_word(r.cli, r.mr);
  CHECK(w != NULL);
  *w = 0; /* below the CHUNK the agent already saw */
  CHECK_EQ_INT(read_chunk(&r, 0), -ENODATA);
  vgw_shim_last_error(msg, sizeof msg);
  CHECK(strstr(msg, "gave up staging") != NULL);
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_UPLOAD, 150), 0);
  *w = REGION + 4096ull;
  CHECK_EQ_INT(read_chunk(&r, 0), -ENODATA);
  /* FAILED: refused at once, whatever the word says */
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_UPLOAD, 150), 0);
  CHECK_EQ_INT(rdma_host_client_progress_publish(r.cli, r.mr, REGION), 0);
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_FAILED, 0), 0);
  CHECK_EQ_INT(read_chunk(&r, 3), -ENODATA);
  /* OFF again: no gate at all; the same connection still works */
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_OFF, 0), 0);
  CHECK_EQ_INT(read_chunk(&r, 7), CHUNK);
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, 9, 0), -EINVAL);
  cuobj_server_stats_t st = stats_of(r.srv);
  CHECK_EQ_INT(st.connects, 1); /* refusals are clean exchanges: the connection was reused */
  rig_close(&r);
}
static void direct_stall_and_hostile(void) { stall_and_hostile(1); }
static void tcp_stall_and_hostile(void) { stall_and_hostile(0); }

static void landed_prefix(int direct) {
  rig_t r;
  rig_open(&r, direct, REGION, REGION);
  char tok[TOKEN_CAP];
  uint64_t base = (uint64_t)(uintptr_t)rig_region(&r);
  /* OFF: writes leave the word alone */
  mint(r.cli, r.mr, 0, REGION, CUOBJ_OP_GET, tok);
  CHECK_EQ_INT(cuobj_server_handle_get_ex(r.srv, "k", r.sbuf, 0, base, CHUNK, tok, 0), CHUNK);
  CHECK_EQ_INT(rdma_host_client_progress(r.cli, r.mr), 0);
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_DOWNLOAD, 0), 0);
  static const unsigned order[] = {2, 1, 5, 0, 3, 4, 7, 6};
  static const uint64_t want[] = {0, 0, 0, 3, 4, 6, 6, 8}; /* contiguous chunks after each */
  for (unsigned k = 0; k < NCHUNK; k++) {
    size_t off = (size_t)order[k] * CHUNK;
    test_fill(r.smem + off, CHUNK, 7 + order[k]);
    CHECK_EQ_INT(cuobj_server_handle_get_ex(r.srv, "k", r.sbuf, off, base + off, CHUNK, tok, 0), CHUNK);
    CHECK_EQ_INT(rdma_host_client_progress(r.cli, r.mr), want[k] * CHUNK);
  }
  CHECK(memcmp(rig_region(&r), r.smem, REGION) == 0);
  /* arming again starts afresh */
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_DOWNLOAD, 0), 0);
  CHECK_EQ_INT(rdma_host_client_progress(r.cli, r.mr), 0);
  rig_close(&r);
}
static void direct_landed_prefix(void) { landed_prefix(1); }
static void tcp_landed_prefix(void) { landed_prefix(0); }

static void *deregister_region(void *arg) {
  rig_t *r = arg;
  CHECK_EQ_INT(rdma_host_client_deregister(r->cli, r->mr), 0);
  return NULL;
}

/* The gateway's transfer deadline cancels a READ the agent holds back: the transfer ends with
 * -ECANCELED and the agent lets go of the region at once (a deregistration does not wait for the
 * 60 s stall timeout). */
static void cancel_while_gated(int direct) {
  rig_t r;
  rig_open(&r, direct, REGION, REGION);
  CHECK_EQ_INT(rdma_host_client_progress_arm(r.cli, r.mr, RDMA_HOST_PROGRESS_UPLOAD, 60000), 0);
  char tok[TOKEN_CAP];
  mint(r.cli, r.mr, 0, REGION, CUOBJ_OP_PUT, tok);
  uint16_t ch = cuobj_server_allocate_channel(r.srv);
  CHECK_EQ_INT(cuobj_server_submit_put(r.srv, "k", r.sbuf, 0, (uint64_t)(uintptr_t)rig_region(&r), CHUNK, tok, ch, 3),
               0);
  struct pollfd pf = {.fd = cuobj_server_completion_fd(r.srv), .events = POLLIN};
  CHECK(poll(&pf, 1, 200) == 0); /* held back */
  CHECK_EQ_INT(cuobj_server_cancel_channel(r.srv, ch), 0);
  CHECK(poll(&pf, 1, 5000) == 1);
  cuobj_async_event_t ev;
  CHECK_EQ_INT(cuobj_server_poll_completions(r.srv, &ev, 1), 1);
  CHECK_EQ_INT(ev.status, -ECANCELED);
  CHECK_EQ_INT(cuobj_server_free_channel(r.srv, ch), 0);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, deregister_region, &r) == 0);
  struct timespec by;
  clock_gettime(CLOCK_REALTIME, &by);
  by.tv_sec += 10;
  CHECK_EQ_INT(pthread_timedjoin_np(t, NULL, &by), 0); /* the pin went with the canceled request */
  r.mr = rdma_host_client_register(r.cli, rig_region(&r), REGION); /* for rig_close */
  CHECK(r.mr != NULL);
  rig_close(&r);
}
static void direct_cancel_while_gated(void) { cancel_while_gated(1); }
static void tcp_cancel_while_gated(void) { cancel_while_gated(0); }

/* ---- overlapped GPU staging (fake CUDA runtime) ---- */

typedef struct gpu_rig {
  cuobj_client_t *cli;
  void *dev;
  cuobj_client_mr_t *mr;
  uint8_t *twin;
  served_t gw; /* the gateway side */
} gpu_rig_t;

static void gpu_open(gpu_rig_t *g, int direct) {
  use_fake_cudart();
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  cfg.allow_direct = (uint32_t)direct;
  g->cli = cuobj_client_create(&cfg);
  CHECK(g->cli != NULL);
  CHECK_EQ_INT(cuobj_client_cuda_set_staging(g->cli, 0, 2), 0);
  g->dev = cuobj_client_alloc(g->cli, REGION, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(g->dev != NULL);
  g->mr = cuobj_client_register(g->cli, g->dev, REGION, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(g->mr != NULL);
  g->twin = cuobj_client_mr_staging_addr(g->mr);
  served_open(&g->gw, direct, 5000, REGION);
}

static void gpu_close(gpu_rig_t *g) {
  CHECK_EQ_INT(served_close(&g->gw), 0);
  CHECK_EQ_INT(cuobj_client_deregister(g->cli, g->mr), 0);
  CHECK_EQ_INT(cuobj_client_free(g->cli, g->dev), 0);
  cuobj_client_destroy(g->cli);
}

typedef struct stage_job {
  gpu_rig_t *g;
  int to_device;
  int rc;
} stage_job_t;

static void *run_stage(void *arg) {
  stage_job_t *j = arg;
  j->rc = j->to_device ? cuobj_client_stage_to_device_overlapped(j->g->cli, j->g->mr, REGION, CHUNK)
                       : cuobj_client_stage_to_host_overlapped(j->g->cli, j->g->mr, REGION, CHUNK);
  return NULL;
}

static void gpu_overlap(int direct) {
  gpu_rig_t g;
  gpu_open(&g, direct);
  uint8_t *host = malloc(REGION), *back = malloc(REGION);
  test_fill(host, REGION, 42);
  CHECK_EQ_INT(cuobj_client_cuda_memcpy(g.cli, g.dev, host, REGION, CUOBJ_CUDA_HOST_TO_DEVICE), 0);
  /* upload: staging and the gateway's chunked reads at once */
  CHECK_EQ_INT(cuobj_client_progress_arm(g.cli, g.mr, RDMA_HOST_PROGRESS_UPLOAD, 3000), 0);
  stage_job_t up = {&g, 0, 1};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, run_stage, &up) == 0);
  char tok[TOKEN_CAP];
  CHECK(cuobj_client_token(g.cli, g.mr, 0, REGION, CUOBJ_OP_PUT, tok, TOKEN_CAP) > 0);
  uint64_t base = (uint64_t)(uintptr_t)g.twin;
  for (unsigned i = 0; i < NCHUNK; i++) {
    size_t off = (size_t)i * CHUNK;
    CHECK_EQ_INT(cuobj_server_handle_put_ex(g.gw.s, "k", g.gw.b, off, base + off, CHUNK, tok, 0), CHUNK);
  }
  pthread_join(t, NULL);
  CHECK_EQ_INT(up.rc, 0);
  CHECK(memcmp(g.gw.mem, host, REGION) == 0);
  /* download: the follower copies chunks to the device as they land; the tail after "reply" */
  test_fill(g.gw.mem, REGION, 43);
  CHECK_EQ_INT(cuobj_client_progress_arm(g.cli, g.mr, RDMA_HOST_PROGRESS_DOWNLOAD, 3000), 0);
  stage_job_t down = {&g, 1, 1};
  CHECK(pthread_create(&t, NULL, run_stage, &down) == 0);
  CHECK(cuobj_client_token(g.cli, g.mr, 0, REGION, CUOBJ_OP_GET, tok, TOKEN_CAP) > 0);
  for (unsigned k = 0; k < NCHUNK; k++) {
    size_t off = (size_t)((k + 1) % NCHUNK) * CHUNK; /* chunk 0 last: nothing lands in order before it */
    CHECK_EQ_INT(cuobj_server_handle_get_ex(g.gw.s, "k", g.gw.b, off, base + off, CHUNK, tok, 0), CHUNK);
  }
  CHECK_EQ_INT(cuobj_client_progress_publish(g.cli, g.mr, REGION), 0); /* the reply */
  pthread_join(t, NULL);
  CHECK_EQ_INT(down.rc, 0);
  CHECK_EQ_INT(cuobj_client_cuda_memcpy(g.cli, back, g.dev, REGION, CUOBJ_CUDA_DEVICE_TO_HOST), 0);
  CHECK(memcmp(back, g.gw.mem, REGION) == 0);
  /* a download abandoned (error reply): the follower stops with -ECANCELED */
  CHECK_EQ_INT(cuobj_client_progress_arm(g.cli, g.mr, RDMA_HOST_PROGRESS_DOWNLOAD, 3000), 0);
  CHECK(pthread_create(&t, NULL, run_stage, &down) == 0);
  sleep_ms(20);
  CHECK_EQ_INT(cuobj_client_progress_arm(g.cli, g.mr, RDMA_HOST_PROGRESS_FAILED, 0), 0);
  pthread_join(t, NULL);
  CHECK_EQ_INT(down.rc, -ECANCELED);
  char msg[256];
  CHECK_EQ_INT(cuobj_client_mr_last_stage_error(g.cli, g.mr, msg, sizeof msg), -ECANCELED);
  CHECK(strstr(msg, "abandoned") != NULL);
  /* not armed: refused */
  CHECK_EQ_INT(cuobj_client_progress_arm(g.cli, g.mr, RDMA_HOST_PROGRESS_OFF, 0), 0);
  CHECK_EQ_INT(cuobj_client_stage_to_device_overlapped(g.cli, g.mr, REGION, 0), -EINVAL);
  CHECK_EQ_INT(cuobj_client_stage_to_host_overlapped(g.cli, g.mr, REGION, 1024), -EINVAL);
  free(host);
  free(back);
  gpu_close(&g);
}
static void direct_gpu_overlap(void) { gpu_overlap(1); }
static void tcp_gpu_overlap(void) { gpu_overlap(0); }

/* A staging copy that fails mid-way marks the gate FAILED: the gateway's waiting READ fails at once. */
static void gpu_stage_failure(void) {
  gpu_rig_t g;
  gpu_open(&g, 1);
  CHECK_EQ_INT(cuobj_client_progress_arm(g.cli, g.mr, RDMA_HOST_PROGRESS_UPLOAD, 3000), 0);
  char env[64];
  snprintf(env, sizeof env, "memcpy_async:%u:2", fake_calls("memcpy_async") + 3);
  setenv("FAKE_CUDART_FAIL", env, 1);
  CHECK(cuobj_client_stage_to_host_overlapped(g.cli, g.mr, REGION, CHUNK) < 0);
  unsetenv("FAKE_CUDART_FAIL");
  /* 2 streams: chunk 0 was waited for and published, chunk 1 in flight was not */
  CHECK_EQ_INT(cuobj_client_progress(g.cli, g.mr), CHUNK);
  char tok[TOKEN_CAP];
  CHECK(cuobj_client_token(g.cli, g.mr, 0, REGION, CUOBJ_OP_PUT, tok, TOKEN_CAP) > 0);
  uint64_t base = (uint64_t)(uintptr_t)g.twin;
  CHECK_EQ_INT(cuobj_server_handle_put_ex(g.gw.s, "k", g.gw.b, 0, base, CHUNK, tok, 0), -ENODATA);
  gpu_close(&g);
}

TEST_MAIN(CASE(direct_progressive_upload), CASE(tcp_progressive_upload), CASE(direct_concurrent_lanes),
          CASE(tcp_concurrent_lanes), {"direct_stall_and_hostile_word", direct_stall_and_hostile},
          {"tcp_stall_and_hostile_word", tcp_stall_and_hostile},
          {"direct_landed_prefix_out_of_order", direct_landed_prefix},
          {"tcp_landed_prefix_out_of_order", tcp_landed_prefix}, CASE(direct_cancel_while_gated),
          CASE(tcp_cancel_while_gated), {"direct_gpu_overlapped_staging", direct_gpu_overlap},
          {"tcp_gpu_overlapped_staging", tcp_gpu_overlap}, {"gpu_staging_failure_fails_the_gate", gpu_stage_failure})
