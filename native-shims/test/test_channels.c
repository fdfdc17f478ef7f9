/* test_channels.c — channels: 16+ transfers at once on distinct channels (sync from threads and
 * async), one transfer per channel (-EBUSY while busy), allocation until none is free, and
 * cancel_channel aborting a transfer that a trickling agent would keep alive forever. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_softnic.h"
#include "softnic/sock.h"

#define NCH 16
#define SLICE (2u << 20)

typedef struct worker {
  cuobj_server_t *s;
  cuobj_rdma_buffer_t *b;
  uint16_t ch;
  int idx;
  int get;
  uint64_t remote;
  char tok[TOKEN_CAP];
  ssize_t rc;
} worker_t;

static void *worker_main(void *arg) {
  worker_t *w = arg;
  for (int rep = 0; rep < 4 && w->rc >= 0; rep++)
    w->rc = w->get ? cuobj_server_handle_get_ex(w->s, "k", w->b, (uint64_t)w->idx * SLICE, w->remote, SLICE, w->tok, w->ch)
                   : cuobj_server_handle_put_ex(w->s, "k", w->b, (uint64_t)w->idx * SLICE, w->remote, SLICE, w->tok, w->ch);
  return NULL;
}

/* A peer (child client, `size` bytes filled with test_fill(seed)) and a server with a buffer of
 * the same size; peer first, so the fork happens before the server's threads exist. */
static void peer_and_served(peer_t *p, served_t *sv, size_t size, uint64_t seed, int direct) {
  peer_start(p, size, seed, direct, 0xffeeddcc, NULL);
  served_open(sv, direct, 10000, size);
}

static void sixteen_sync_threads(int direct) {
  peer_t p;
  served_t sv;
  peer_and_served(&p, &sv, NCH * SLICE, 8, direct);
  worker_t w[NCH];
  pthread_t th[NCH];
  for (int get = 0; get <= 1; get++) {
    if (get) test_fill(sv.mem, NCH * SLICE, 31);
    for (int i = 0; i < NCH; i++) {
      w[i] = (worker_t){.s = sv.s, .b = sv.b, .ch = cuobj_server_allocate_channel(sv.s), .idx = i, .get = get,
                        .remote = p.addr + (uint64_t)i * SLICE};
      CHECK(w[i].ch != CUOBJ_CHANNEL_NONE);
      peer_token(&p, (size_t)i * SLICE, SLICE, get ? CUOBJ_OP_GET : CUOBJ_OP_PUT, w[i].tok);
    }
    for (int i = 0; i < NCH; i++) CHECK(pthread_create(&th[i], NULL, worker_main, &w[i]) == 0);
    for (int i = 0; i < NCH; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < NCH; i++) {
      CHECK_EQ_INT(w[i].rc, SLICE);
      CHECK(peer_hash(&p, (size_t)i * SLICE, SLICE) == test_hash(sv.mem + (size_t)i * SLICE, SLICE));
      CHECK_EQ_INT(cuobj_server_free_channel(sv.s, w[i].ch), 0);
    }
  }
  cuobj_server_stats_t st = stats_of(sv.s);
  CHECK_EQ_INT(direct ? st.direct_transfers : st.tcp_transfers, 2 * NCH * 4);
  CHECK(st.connects >= 1 && st.connects <= NCH); /* cached per agent, one per concurrent user */
  served_close(&sv);
  peer_stop(&p);
}
static void sync_threads_direct(void) { sixteen_sync_threads(1); }
static void sync_threads_tcp(void) { sixteen_sync_threads(0); }

static void twenty_async(int direct) {
  enum { N = 20 };
  peer_t p;
  served_t sv;
  peer_and_served(&p, &sv, N * SLICE, 9, direct);
  for (int i = 0; i < N; i++) {
    char tok[TOKEN_CAP];
    peer_token(&p, (size_t)i * SLICE, SLICE, CUOBJ_OP_PUT, tok);
    CHECK_EQ_INT(cuobj_server_submit_put(sv.s, "k", sv.b, (uint64_t)i * SLICE, p.addr + (uint64_t)i * SLICE, SLICE, tok,
                                         (uint16_t)(100 + i), (uint64_t)i),
                 0);
  }
  int got = 0;
  while (got < N) {
    struct pollfd pf = {.fd = cuobj_server_completion_fd(sv.s), .events = POLLIN};
    CHECK(poll(&pf, 1, 20000) == 1);
    cuobj_async_event_t ev[N];
    int k = cuobj_server_poll_completions(sv.s, ev, N);
    for (int j = 0; j < k; j++) CHECK_EQ_INT(ev[j].status, SLICE);
    got += k;
  }
  CHECK(peer_hash(&p, 0, N * SLICE) == test_hash(sv.mem, N * SLICE));
  served_close(&sv);
  peer_stop(&p);
}
static void async_direct(void) { twenty_async(1); }
static void async_tcp(void) { twenty_async(0); }

/* A TCP-only server (8 KiB buffer), a token for 4 KiB at 0x1000 naming the agent listening on
 * 127.0.0.1:port, and one channel (returned) to send it on. */
static uint16_t served_for_listener(served_t *sv, uint32_t io_timeout_ms, uint16_t port, char tok[TOKEN_CAP]) {
  served_open(sv, 0, io_timeout_ms, 8192);
  loopback_token(0x1000, 4096, port, tok);
  return cuobj_server_allocate_channel(sv->s);
}

/* A listener that never accepts: connect succeeds (backlog), the handshake never answers, so a
 * transfer to it stays in flight until the socket timeout. */
static void busy_channel_refused(void) {
  uint16_t port;
  int lfd = loopback_listen(&port);
  served_t sv;
  char tok[TOKEN_CAP];
  uint16_t ch = served_for_listener(&sv, 1500, port, tok);
  CHECK_EQ_INT(cuobj_server_submit_get(sv.s, "k", sv.b, 0, 0x1000, 4096, tok, ch, 1), 0);
  /* while it is in flight: */
  CHECK_EQ_INT(cuobj_server_submit_get(sv.s, "k", sv.b, 0, 0x1000, 4096, tok, ch, 2), -EBUSY);
  CHECK_EQ_INT(cuobj_server_handle_put(sv.s, "k", sv.b, 0x1000, 4096, tok, ch), -EBUSY);
  CHECK_EQ_INT(cuobj_server_free_channel(sv.s, ch), -EBUSY);
  CHECK_EQ_INT(cuobj_server_deregister_buffer(sv.s, sv.b), -EBUSY);
  struct pollfd pf = {.fd = cuobj_server_completion_fd(sv.s), .events = POLLIN};
  CHECK(poll(&pf, 1, 20000) == 1);
  cuobj_async_event_t ev[4];
  CHECK_EQ_INT(cuobj_server_poll_completions(sv.s, ev, 4), 1); /* exactly one: tag 2 was refused */
  CHECK(ev[0].user_tag == 1);
  CHECK_EQ_INT(ev[0].status, -ETIMEDOUT);
  CHECK_EQ_INT(cuobj_server_free_channel(sv.s, ch), 0);
  CHECK_EQ_INT(cuobj_server_deregister_buffer(sv.s, sv.b), 0);
  sv.b = NULL;
  served_close(&sv);
  close(lfd);
}

/* A fake agent that answers the handshake (the default DC key) and a READ_REQ, then trickles the DATA payload one byte
 * every 100 ms — each recv of the gateway gets a byte well within its io timeout, so only a
 * cancel ends the transfer. With `handshake` set it trickles its HELLO_ACK instead. It stops when
 * the gateway's side of the socket goes away. */
typedef struct trickler {
  int lfd;
  int handshake;
  int bytes_sent;
} trickler_t;

static void trickle(trickler_t *t, int fd) {
  uint8_t byte = 0x5a;
  while (send(fd, &byte, 1, MSG_NOSIGNAL) == 1) {
    t->bytes_sent++;
    usleep(100 * 1000);
  }
}

static void *trickle_main(void *arg) {
  trickler_t *t = arg;
  int fd = accept(t->lfd, NULL, NULL);
  if (fd < 0) return NULL;
  snic_hdr_t h;
  if (t->handshake) {
    if (sock_recv_hdr(fd, &h) == 0 && h.type == SNIC_HELLO) trickle(t, fd);
  } else if (fake_agent_handshake(fd, 0xffeeddcc, getpid(), 0) == 0 && sock_recv_hdr(fd, &h) == 0 &&
             h.type == SNIC_READ_REQ) {
    snic_hdr_t resp = snic_hdr_make(SNIC_READ_RESP), data = snic_hdr_make(SNIC_DATA);
    data.length = h.length;
    sock_send_hdr(fd, &resp, NULL, 0);
    sock_send_hdr(fd, &data, NULL, 0);
    trickle(t, fd);
  }
  close(fd);
  return NULL;
}

static void cancel_trickled(int handshake) {
  uint16_t port;
  trickler_t tr = {.lfd = loopback_listen(&port), .handshake = handshake};
  pthread_t th;
  CHECK(pthread_create(&th, NULL, trickle_main, &tr) == 0);
  served_t sv;
  char tok[TOKEN_CAP];
  uint16_t ch = served_for_listener(&sv, 2000, port, tok);
  CHECK_EQ_INT(cuobj_server_cancel_channel(sv.s, ch), 0); /* nothing running: no effect on the next */
  CHECK_EQ_INT(cuobj_server_submit_put(sv.s, "k", sv.b, 0, 0x1000, 4096, tok, ch, 7), 0);
  struct pollfd pf = {.fd = cuobj_server_completion_fd(sv.s), .events = POLLIN};
  CHECK(poll(&pf, 1, handshake ? 1000 : 3000) == 0); /* longer than the io timeout: still alive */
  CHECK_EQ_INT(cuobj_server_free_channel(sv.s, ch), -EBUSY);
  CHECK_EQ_INT(cuobj_server_cancel_channel(sv.s, ch), 0);
  CHECK(poll(&pf, 1, 5000) == 1);
  cuobj_async_event_t ev[2];
  CHECK_EQ_INT(cuobj_server_poll_completions(sv.s, ev, 2), 1);
  CHECK(ev[0].user_tag == 7);
  CHECK_EQ_INT(ev[0].status, -ECANCELED);
  CHECK_EQ_INT(cuobj_server_free_channel(sv.s, ch), 0);
  CHECK_EQ_INT(cuobj_server_cancel_channel(sv.s, ch), -EINVAL); /* freed */
  CHECK_EQ_INT(cuobj_server_deregister_buffer(sv.s, sv.b), 0);
  sv.b = NULL;
  served_close(&sv);
  pthread_join(th, NULL); /* the agent saw its socket shut down */
  CHECK(tr.bytes_sent > 0 && tr.bytes_sent < (handshake ? 40 : 4096));
  close(tr.lfd);
}
static void cancel_trickling_transfer(void) { cancel_trickled(0); }
static void cancel_trickling_handshake(void) { cancel_trickled(1); }

static void allocate_until_none(void) {
  cuobj_rdma_tunables_t t;
  cuobj_server_tunables_default(&t);
  t.num_dcis = 4;
  cuobj_server_t *s = cuobj_server_create_with_config(NULL, 0, CUOBJ_PROTO_RDMA_DC_V1, &t);
  CHECK(s != NULL);
  for (int i = 0; i < 4; i++) CHECK_EQ_INT(cuobj_server_allocate_channel(s), i);
  CHECK_EQ_INT(cuobj_server_allocate_channel(s), CUOBJ_CHANNEL_NONE);
  CHECK_EQ_INT(cuobj_server_free_channel(s, 2), 0);
  CHECK_EQ_INT(cuobj_server_free_channel(s, 2), -EINVAL);
  CHECK_EQ_INT(cuobj_server_free_channel(s, 4), -EINVAL);
  CHECK_EQ_INT(cuobj_server_allocate_channel(s), 2);
  CHECK_EQ_INT(cuobj_server_allocate_channel(s), CUOBJ_CHANNEL_NONE);
  cuobj_server_destroy(s);
}

TEST_MAIN({"sixteen_sync_threads_direct", sync_threads_direct}, {"sixteen_sync_threads_tcp", sync_threads_tcp},
          {"twenty_async_channels_direct", async_direct}, {"twenty_async_channels_tcp", async_tcp},
          CASE(busy_channel_refused), CASE(allocate_until_none), CASE(cancel_trickling_transfer),
          CASE(cancel_trickling_handshake))
