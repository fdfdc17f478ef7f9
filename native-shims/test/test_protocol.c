/* test_protocol.c — the softnic wire protocol under abuse. A raw client sends truncated and
 * malformed frames to a real agent (the agent must refuse, survive, and release its pins); a fake
 * agent sends malformed replies to a real server (it must fail cleanly, never write past the
 * transfer). Also: the cookie proof, the agent withdrawing the direct path. */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_softnic.h"
#include "softnic/auth.h"
#include "softnic/sock.h"
#include "softnic/wire.h"

#define REG (64u << 10)

static snic_hdr_t hello_ack(int fd, uint64_t dc_key, int want_direct) {
  return gateway_handshake(fd, dc_key, want_direct, NULL);
}

/* After every abuse, the agent still serves a real transfer and the region deregisters
 * (deregister waits for pins: a leaked pin would hang here). */
static void agent_still_healthy(rig_t *r) {
  char tok[TOKEN_CAP];
  rig_put_checked(r, REG, 4, tok);
}

static void agent_refuses_truncated_and_malformed(void) {
  rig_t r;
  rig_open(&r, 0, REG, 1 << 20);
  const agent_target_t at = agent_target(&r);
  uint8_t raw[SNIC_HDR_LEN];

  /* 1. half a HELLO, then hang up */
  int fd = agent_connect(at.port);
  snic_hdr_t h = snic_hdr_make(SNIC_HELLO);
  h.length = SNIC_NONCE_LEN;
  snic_hdr_pack(&h, raw);
  CHECK_EQ_INT(sock_send_all(fd, raw, SNIC_HDR_LEN / 2), 0);
  close(fd);

  /* 2. bad magic in the first frame */
  fd = agent_connect(at.port);
  raw[0] ^= 0xff;
  CHECK_EQ_INT(sock_send_all(fd, raw, SNIC_HDR_LEN), 0);
  agent_expect_error_then_eof(fd);
  close(fd);

  /* 3. unknown message type after a good handshake */
  fd = agent_connect(at.port);
  CHECK_EQ_INT(hello_ack(fd, 0xffeeddcc, 0).status, 0);
  snic_hdr_t bogus = snic_hdr_make(200);
  CHECK_EQ_INT(sock_send_hdr(fd, &bogus, NULL, 0), 0);
  agent_expect_error_then_eof(fd);
  close(fd);

  /* 4. WRITE whose DATA frame is cut short: the pin must be released when the peer vanishes */
  fd = agent_connect(at.port);
  hello_ack(fd, 0xffeeddcc, 0);
  snic_hdr_t ready = agent_ask(fd, SNIC_WRITE_REQ, at.rkey, at.base, 4096, 0);
  CHECK_EQ_INT(ready.type, SNIC_WRITE_READY);
  CHECK_EQ_INT(ready.status, 0);
  snic_hdr_t d = snic_hdr_make(SNIC_DATA);
  d.length = 4096;
  uint8_t junk[100] = {0};
  snic_hdr_pack(&d, raw);
  CHECK_EQ_INT(sock_send_all(fd, raw, SNIC_HDR_LEN), 0);
  CHECK_EQ_INT(sock_send_all(fd, junk, sizeof junk), 0);
  close(fd);

  /* 5. DATA frames out of order, too long, or of the wrong type are protocol errors */
  struct { uint8_t type; uint64_t off, len; } bad[] = {{SNIC_DATA, 8, 8}, {SNIC_DATA, 0, 4097}, {SNIC_READ_REQ, 0, 8}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    fd = agent_connect(at.port);
    hello_ack(fd, 0xffeeddcc, 0);
    CHECK_EQ_INT(agent_ask(fd, SNIC_WRITE_REQ, at.rkey, at.base, 4096, 0).status, 0);
    snic_hdr_t f = snic_hdr_make(bad[i].type);
    f.arg = bad[i].off;
    f.length = bad[i].len;
    CHECK_EQ_INT(sock_send_hdr(fd, &f, NULL, 0), 0);
    agent_expect_error_then_eof(fd);
    close(fd);
  }

  /* 6. a truncated header in the middle of a session */
  fd = agent_connect(at.port);
  hello_ack(fd, 0xffeeddcc, 0);
  snic_hdr_t rr = snic_hdr_make(SNIC_READ_REQ);
  snic_hdr_pack(&rr, raw);
  CHECK_EQ_INT(sock_send_all(fd, raw, 7), 0);
  close(fd);

  agent_still_healthy(&r);
  rig_close(&r); /* deregister returns: no pin leaked */
}

static void cookie_proof_required_for_direct(void) {
  rig_t r;
  rig_open(&r, 1, REG, 1 << 20);
  const agent_target_t at = agent_target(&r);

  /* a server that does not ask for the direct path is not shown the cookie */
  int fd = agent_connect(at.port);
  snic_hdr_t a = hello_ack(fd, 0xffeeddcc, 0);
  CHECK_EQ_INT(a.flags & SNIC_FLAG_DIRECT, 0);
  CHECK_EQ_INT(a.arg, 0);
  close(fd);

  fd = agent_connect(at.port);
  a = hello_ack(fd, 0xffeeddcc, 1);
  CHECK(a.flags & SNIC_FLAG_DIRECT);
  CHECK_EQ_INT(a.length, SNIC_COOKIE_LEN);
  CHECK_EQ_INT(a.addr, getpid());
  /* unproven: DIRECT_BEGIN is refused with -EPERM ("use TCP") */
  snic_hdr_t b = agent_ask(fd, SNIC_DIRECT_BEGIN, at.rkey, at.base, 16, 0);
  CHECK_EQ_INT(b.type, SNIC_DIRECT_ACK);
  CHECK_EQ_INT(b.status, -EPERM);
  /* a wrong cookie is refused and leaves the connection unproven */
  uint8_t cookie[SNIC_COOKIE_LEN];
  memcpy(cookie, (const void *)(uintptr_t)a.arg, sizeof cookie); /* same process: we can read it */
  cookie[5] ^= 1;
  snic_hdr_t p = snic_hdr_make(SNIC_PROVE), pa;
  p.length = SNIC_COOKIE_LEN;
  CHECK_EQ_INT(sock_send_hdr(fd, &p, cookie, sizeof cookie), 0);
  CHECK_EQ_INT(sock_recv_hdr(fd, &pa), 0);
  CHECK_EQ_INT(pa.type, SNIC_PROVE_ACK);
  CHECK_EQ_INT(pa.status, -EACCES);
  CHECK_EQ_INT(agent_ask(fd, SNIC_DIRECT_BEGIN, at.rkey, at.base, 16, 0).status, -EPERM);
  /* the right cookie enables DIRECT_BEGIN, which still checks rkey and bounds */
  cookie[5] ^= 1;
  CHECK_EQ_INT(sock_send_hdr(fd, &p, cookie, sizeof cookie), 0);
  CHECK_EQ_INT(sock_recv_hdr(fd, &pa), 0);
  CHECK_EQ_INT(pa.status, 0);
  CHECK_EQ_INT(agent_ask(fd, SNIC_DIRECT_BEGIN, at.rkey + 1, at.base, 16, 0).status, -EACCES);
  CHECK_EQ_INT(agent_ask(fd, SNIC_DIRECT_BEGIN, at.rkey, at.base + REG - 8, 16, 0).status, -ERANGE);
  CHECK_EQ_INT(agent_ask(fd, SNIC_DIRECT_BEGIN, at.rkey, at.base, 16, 0).status, 0);
  snic_hdr_t done = agent_ask(fd, SNIC_DIRECT_END, 0, 0, 0, 0);
  CHECK_EQ_INT(done.type, SNIC_DIRECT_DONE);
  CHECK_EQ_INT(done.status, 0);
  close(fd);
  rig_close(&r);
}

static void agent_withdraws_direct(void) {
  rig_t r;
  rig_open(&r, 1, REG, 1 << 20);
  uint64_t base = (uint64_t)(uintptr_t)rig_region(&r);
  char tok[TOKEN_CAP];
  mint(r.cli, r.mr, 0, REG, CUOBJ_OP_GET, tok);
  test_fill(r.smem, REG, 1);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base, REG, tok, 0), REG);
  CHECK_EQ_INT(stats_of(r.srv).direct_transfers, 1);
  CHECK_EQ_INT(rdma_host_client_set_direct_access(r.cli, 0), 0);
  test_fill(r.smem, REG, 2);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base, REG, tok, 0), REG);
  CHECK(memcmp(r.smem, rig_region(&r), REG) == 0);
  cuobj_server_stats_t st = stats_of(r.srv);
  CHECK_EQ_INT(st.direct_transfers, 1); /* the second went over TCP on the same connection */
  CHECK_EQ_INT(st.tcp_transfers, 1);
  CHECK_EQ_INT(st.connects, 1);
  rig_close(&r);
}

/* A server that may not ptrace the client (another uid: the kernel answers EPERM) must fall back
 * to TCP, not fail. Needs root to switch the child to an unprivileged uid. */
static void eperm_falls_back_to_tcp(void) {
  if (geteuid() != 0) skip_case("needs root to run the server child under another uid");
  int tp[2];
  CHECK(pipe(tp) == 0);
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(tp[1]);
    char tok[TOKEN_CAP];
    uint64_t addr;
    if (read(tp[0], tok, sizeof tok) != sizeof tok || read(tp[0], &addr, sizeof addr) != sizeof addr) _exit(20);
    if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0) _exit(21);
    cuobj_server_t *s = test_server(1, 5000);
    uint8_t *mem = cuobj_server_alloc_host_buffer(s, 4096);
    cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, mem, 4096);
    memset(mem, 0x42, 4096);
    if (cuobj_server_handle_get(s, "k", b, addr, 4096, tok, 0) != 4096) _exit(22);
    cuobj_server_stats_t st = stats_of(s);
    if (st.proofs_failed != 1 || st.proofs_ok != 0 || st.tcp_transfers != 1 || st.direct_transfers != 0) _exit(23);
    cuobj_server_deregister_buffer(s, b);
    cuobj_server_free_host_buffer(s, mem);
    cuobj_server_destroy(s);
    _exit(0);
  }
  close(tp[0]);
  rig_t r;
  rig_open(&r, 1, 4096, 4096);
  char tok[TOKEN_CAP];
  mint(r.cli, r.mr, 0, 4096, CUOBJ_OP_GET, tok);
  uint64_t addr = (uint64_t)(uintptr_t)rig_region(&r);
  CHECK(write(tp[1], tok, sizeof tok) == sizeof tok && write(tp[1], &addr, sizeof addr) == sizeof addr);
  int st;
  CHECK(waitpid(pid, &st, 0) == pid);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    CHECK(0);
  }
  for (int i = 0; i < 4096; i++) CHECK(rig_region(&r)[i] == 0x42);
  close(tp[1]);
  rig_close(&r);
}

/* ---- fake agent: answers the handshake, then misbehaves on the first request ------------- */

typedef struct fake {
  int lfd;
  uint16_t port;
  int mode; /* 0 oversize DATA, 1 wrong offset, 2 truncated payload, 3 silent, 4 ack with wrong length */
  pthread_t th;
} fake_t;

static void *fake_main(void *arg) {
  fake_t *f = arg;
  int fd = accept(f->lfd, NULL, NULL);
  if (fd < 0) return NULL;
  snic_hdr_t h;
  if (fake_agent_handshake(fd, 0xffeeddcc, getpid(), 0) == 0 && sock_recv_hdr(fd, &h) == 0) {
    uint8_t payload[8192] = {0};
    if (f->mode == 4) { /* a WRITE: accept, swallow the data, then ack the wrong length */
      snic_hdr_t rdy = snic_hdr_make(SNIC_WRITE_READY), d;
      sock_send_hdr(fd, &rdy, NULL, 0);
      for (uint64_t got = 0; got < h.length && sock_recv_hdr(fd, &d) == 0; got += d.length)
        sock_recv_all(fd, payload, (size_t)d.length);
      snic_hdr_t ack = snic_hdr_make(SNIC_WRITE_ACK);
      ack.length = h.length - 1;
      sock_send_hdr(fd, &ack, NULL, 0);
    } else if (f->mode != 3) {
      snic_hdr_t resp = snic_hdr_make(SNIC_READ_RESP);
      resp.length = h.length;
      sock_send_hdr(fd, &resp, NULL, 0);
      snic_hdr_t d = snic_hdr_make(SNIC_DATA);
      d.length = f->mode == 0 ? h.length + 1 : 16;
      d.arg = f->mode == 1 ? 5 : 0;
      sock_send_hdr(fd, &d, payload, f->mode == 2 ? 8 : (size_t)d.length);
    } else {
      sleep(2); /* say nothing: the server's socket timeout must fire */
    }
  }
  close(fd);
  return NULL;
}

static void fake_start(fake_t *f, int mode) {
  f->mode = mode;
  f->lfd = loopback_listen(&f->port);
  CHECK(pthread_create(&f->th, NULL, fake_main, f) == 0);
}

static void fake_stop(fake_t *f) {
  pthread_join(f->th, NULL);
  close(f->lfd);
}

static void server_survives_bad_agent(void) {
  static const struct { int mode; int want; } cases[] = {
      {0, -EPROTO}, {1, -EPROTO}, {2, -EIO}, {3, -ETIMEDOUT}, {4, -EPROTO}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fake_t f;
    fake_start(&f, cases[i].mode);
    served_t sv;
    served_open(&sv, 0, 500, 8192);
    cuobj_server_t *s = sv.s;
    uint8_t *mem = sv.mem;
    cuobj_rdma_buffer_t *b = sv.b;
    memset(mem, 0x33, 8192);
    char tok[TOKEN_CAP];
    loopback_token(0x10000, 4096, f.port, tok);
    ssize_t rc = cases[i].mode == 4 ? cuobj_server_handle_get(s, "k", b, 0x10000, 4096, tok, 0)
                                    : cuobj_server_handle_put(s, "k", b, 0x10000, 4096, tok, 0);
    if (rc != cases[i].want) {
      fprintf(stderr, "mode %d: got %zd want %d\n", cases[i].mode, rc, cases[i].want);
      CHECK(0);
    }
    for (int k = 4096; k < 8192; k++) CHECK(mem[k] == 0x33); /* nothing past the transfer */
    CHECK_EQ_INT(stats_of(s).failed_transfers, 1);
    served_close(&sv);
    fake_stop(&f);
  }
}

TEST_MAIN(CASE(agent_refuses_truncated_and_malformed), CASE(cookie_proof_required_for_direct),
          CASE(agent_withdraws_direct), CASE(eperm_falls_back_to_tcp), CASE(server_survives_bad_agent))
