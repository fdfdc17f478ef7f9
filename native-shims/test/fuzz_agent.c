/* fuzz_agent.c — a live softnic agent under hostile gateways, under ASan/UBSan.
 *  - agent_frames: seeded random and mutated frame sequences on raw connections (handshakes with
 *    right and wrong DC keys, malformed HELLOs, proven and unproven direct path, random rkeys/addresses/lengths/types, short
 *    payloads, corrupt magic). Afterwards: the guard pages around the region are untouched, a real
 *    server transfer still works, and the region deregisters (a leaked pin would hang there).
 *  - oversized_frames: DATA above the 64 MiB frame limit, lengths of 2^64-1, a PROVE with a huge
 *    payload, DATA outside a request: refused (ERROR -EPROTO and close, or a clean -ERANGE).
 *  - refusals_leave_peer_unharmed: after wrong rkey / out-of-region / wrong DC key / a protocol
 *    error on another connection, the same agent serves the next good transfer, on the same
 *    cached connection where the refusal was clean.
 * Cases counted in agent_frames are frames sent. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "fuzz_support.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_softnic.h"
#include "softnic/auth.h"
#include "softnic/sock.h"
#include "softnic/wire.h"

#define REG (64u << 10)
#define DC_KEY 0xffeeddccull

/* Read until the agent closes; every frame it sends must parse (it never sends garbage). */
static void drain_to_eof(int fd) {
  shutdown(fd, SHUT_WR);
  uint8_t buf[1 << 16];
  for (;;) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;
    CHECK(n > 0 || errno == ECONNRESET); /* a timeout here would mean the agent hung */
    if (n < 0) break;
  }
  close(fd);
}

static void paint(rig_t *r) {
  memset(r->cmem, 0xee, 4096);
  memset(rig_region(r) + r->region_size, 0xee, 4096);
}

static void check_guards(const rig_t *r) {
  for (size_t i = 0; i < 4096; i++) {
    CHECK(r->cmem[i] == 0xee);
    CHECK(rig_region(r)[r->region_size + i] == 0xee);
  }
}

/* A real transfer through the real server, both directions, bytes compared. */
static void agent_serves(rig_t *r) {
  char tok[TOKEN_CAP];
  rig_put_checked(r, REG, 77, tok);
  uint64_t base = (uint64_t)(uintptr_t)rig_region(r);
  memset(r->smem, 0x5a, REG);
  CHECK_EQ_INT(cuobj_server_handle_get(r->srv, "k", r->sbuf, base, REG, tok, 0), REG);
  for (size_t i = 0; i < REG; i++) CHECK(rig_region(r)[i] == 0x5a);
}

/* ---- agent_frames ------------------------------------------------------------------------ */

typedef struct target {
  uint64_t base;
  uint32_t rkey;
} target_t;

static const uint8_t k_types[] = {SNIC_READ_REQ, SNIC_WRITE_REQ, SNIC_DIRECT_BEGIN, SNIC_DIRECT_END,
                                  SNIC_PROVE,    SNIC_DATA,      SNIC_HELLO,        SNIC_ERROR,
                                  SNIC_AUTH};

static snic_hdr_t random_frame(uint64_t *rng, const target_t *t) {
  uint64_t r = test_rand(rng);
  snic_hdr_t h = snic_hdr_make(r % 8 == 0 ? (uint8_t)test_rand(rng) : k_types[(r >> 3) % sizeof k_types]);
  h.rkey = test_rand(rng) % 4 ? t->rkey : (uint32_t)test_rand(rng);
  int64_t off = (int64_t)(test_rand(rng) % (REG + 8192)) - 4096;
  h.addr = test_rand(rng) % 4 ? t->base + (uint64_t)off : fuzz_edge_u64(rng);
  h.length = test_rand(rng) % 3 ? test_rand(rng) % (REG + 1) : fuzz_edge_u64(rng);
  h.arg = test_rand(rng) % 2 ? 0 : fuzz_edge_u64(rng);
  h.flags = (uint16_t)(test_rand(rng) % 4 == 0 ? test_rand(rng) : 0);
  h.status = (int32_t)(test_rand(rng) % 8 == 0 ? test_rand(rng) : 0);
  return h;
}

/* Sends one frame: header (sometimes corrupt), then a payload of up to its length (sometimes
 * short, so the agent waits and then sees EOF). */
static int send_frame(int fd, uint64_t *rng, const snic_hdr_t *h) {
  uint8_t raw[SNIC_HDR_LEN], payload[512];
  snic_hdr_pack(h, raw);
  if (test_rand(rng) % 16 == 0) raw[test_rand(rng) % SNIC_HDR_LEN] ^= (uint8_t)(1u << (test_rand(rng) % 8));
  size_t n = 0;
  if (h->type == SNIC_DATA || h->type == SNIC_PROVE || test_rand(rng) % 8 == 0)
    n = (size_t)(h->length < sizeof payload ? h->length : test_rand(rng) % sizeof payload);
  test_fill(payload, n, test_rand(rng));
  if (sock_send_all(fd, raw, sizeof raw) != 0) return -1; /* the agent already hung up: fine */
  return n > 0 ? sock_send_all(fd, payload, n) : 0;
}

/* A handshake (usually with the right DC key; a wrong one must end in AUTH_ACK(-EACCES)), or a
 * first frame that is no proper HELLO; and, sometimes, a correct cookie proof read from our own
 * memory. */
static int open_session(uint16_t port, uint64_t *rng) {
  int fd = agent_connect(port);
  uint64_t key = test_rand(rng) % 6 ? DC_KEY : fuzz_edge_u64(rng);
  int want_direct = (int)(test_rand(rng) % 2);
  if (test_rand(rng) % 10 == 0) { /* not a proper HELLO: any type, any length, short payloads */
    snic_hdr_t h = snic_hdr_make(test_rand(rng) % 2 ? SNIC_HELLO : (uint8_t)test_rand(rng));
    h.length = test_rand(rng) % 2 ? fuzz_edge_u64(rng) : SNIC_NONCE_LEN - 1;
    send_frame(fd, rng, &h);
    return fd;
  }
  int proof_ok = 0;
  snic_hdr_t ack = gateway_handshake(fd, key, want_direct, &proof_ok);
  CHECK_EQ_INT(proof_ok, key == DC_KEY);
  CHECK_EQ_INT(ack.status, key == DC_KEY ? 0 : -EACCES);
  if (ack.status != 0) CHECK(ack.addr == 0 && ack.arg == 0); /* nothing revealed to a wrong key */
  if (ack.status == 0 && ack.length == SNIC_COOKIE_LEN && test_rand(rng) % 2) {
    snic_hdr_t p = snic_hdr_make(SNIC_PROVE), pa;
    p.length = SNIC_COOKIE_LEN;
    CHECK_EQ_INT(sock_send_hdr(fd, &p, (const void *)(uintptr_t)ack.arg, SNIC_COOKIE_LEN), 0);
    CHECK_EQ_INT(sock_recv_hdr(fd, &pa), 0);
    CHECK_EQ_INT(pa.status, 0);
  }
  return fd;
}

static void agent_frames(void) {
  uint64_t runs = fuzz_runs(600), rng = fuzz_seed("agent_frames");
  rig_t r;
  rig_open(&r, 1, REG, 1 << 20);
  paint(&r);
  alarm(600); /* a hang (leaked pin, stuck agent) fails instead of blocking CI */
  uint16_t port = (uint16_t)rdma_host_client_agent_port(r.cli);
  target_t t = {(uint64_t)(uintptr_t)rig_region(&r), rdma_host_mr_rkey(r.mr)};
  uint64_t sent = 0;
  while (sent < runs) {
    int fd = open_session(port, &rng);
    unsigned frames = 1 + (unsigned)(test_rand(&rng) % 6);
    for (unsigned i = 0; i < frames && sent < runs; i++, sent++) {
      snic_hdr_t h = random_frame(&rng, &t);
      if (send_frame(fd, &rng, &h) != 0) break;
    }
    drain_to_eof(fd);
  }
  check_guards(&r);
  agent_serves(&r);
  check_guards(&r);
  rig_close(&r); /* deregistration waits for pins: returns only if none leaked */
  alarm(0);
  fuzz_report("agent_frames", runs);
}

/* ---- oversized_frames -------------------------------------------------------------------- */

/* Refused: ERROR(-EPROTO), EOF, and the socket closed. */
static void expect_error_then_eof(int fd) {
  agent_expect_error_then_eof(fd);
  close(fd);
}

static int session(uint16_t port) {
  int fd = agent_connect(port);
  CHECK_EQ_INT(gateway_handshake(fd, DC_KEY, 0, NULL).status, 0);
  return fd;
}

static void oversized_frames(void) {
  const size_t big = SNIC_MAX_FRAME + 8192; /* a window larger than one frame may be */
  rig_t r;
  rig_open(&r, 0, big, 1 << 20);
  paint(&r);
  memset(rig_region(&r), 0x11, big);
  const agent_target_t at = agent_target(&r);

  /* 1. a DATA frame one byte over the 64 MiB limit, inside a WRITE whose window would hold it */
  int fd = session(at.port);
  CHECK_EQ_INT(agent_ask(fd, SNIC_WRITE_REQ, at.rkey, at.base, big, 0).status, 0);
  snic_hdr_t d = snic_hdr_make(SNIC_DATA);
  d.length = (uint64_t)SNIC_MAX_FRAME + 1;
  CHECK_EQ_INT(sock_send_hdr(fd, &d, NULL, 0), 0);
  expect_error_then_eof(fd);

  /* 2. DATA longer than the whole window, and of length 2^64-1 */
  uint64_t lens[] = {big + 1, ~0ull};
  for (size_t i = 0; i < 2; i++) {
    fd = session(at.port);
    CHECK_EQ_INT(agent_ask(fd, SNIC_WRITE_REQ, at.rkey, at.base, 4096, 0).status, 0);
    d.length = lens[i];
    CHECK_EQ_INT(sock_send_hdr(fd, &d, NULL, 0), 0);
    expect_error_then_eof(fd);
  }

  /* 3. requests of 2^64-1 bytes, or ending past 2^64: clean -ERANGE, connection still usable;
   *    a frame size of 2^64-1 is clamped, not trusted */
  fd = session(at.port);
  CHECK_EQ_INT(agent_ask(fd, SNIC_READ_REQ, at.rkey, at.base, ~0ull, 0).status, -ERANGE);
  CHECK_EQ_INT(agent_ask(fd, SNIC_WRITE_REQ, at.rkey, at.base + 16, ~0ull - 8, 0).status, -ERANGE);
  CHECK_EQ_INT(agent_ask(fd, SNIC_READ_REQ, at.rkey, ~0ull - 8, 16, 0).status, -ERANGE);
  snic_hdr_t rr = agent_ask(fd, SNIC_READ_REQ, at.rkey, at.base, 16, ~0ull);
  CHECK_EQ_INT(rr.status, 0);
  CHECK_EQ_INT(sock_recv_hdr(fd, &d), 0);
  CHECK_EQ_INT(d.type, SNIC_DATA);
  CHECK_EQ_INT(d.length, 16);
  uint8_t got[16];
  CHECK_EQ_INT(sock_recv_all(fd, got, sizeof got), 0);
  for (int i = 0; i < 16; i++) CHECK(got[i] == 0x11);
  close(fd);

  /* 4. a PROVE claiming a huge payload, and DATA outside any request */
  fd = session(at.port);
  snic_hdr_t p = snic_hdr_make(SNIC_PROVE);
  p.length = 1ull << 40;
  CHECK_EQ_INT(sock_send_hdr(fd, &p, NULL, 0), 0);
  expect_error_then_eof(fd);
  fd = session(at.port);
  d.length = 16;
  CHECK_EQ_INT(sock_send_hdr(fd, &d, NULL, 0), 0);
  expect_error_then_eof(fd);

  for (size_t i = 0; i < big; i += 4096) CHECK(rig_region(&r)[i] == 0x11);
  check_guards(&r);
  agent_serves(&r);
  rig_close(&r);
}

/* ---- refusals_leave_peer_unharmed ------------------------------------------------------- */

static void bump_rkey(cuobj_token_t *t, void *arg) { (void)arg; t->rkey ^= 0x80000000u; }
static void grow(cuobj_token_t *t, void *arg) { (void)arg; t->size += 4096; }

static void unharmed(int direct) {
  rig_t r;
  rig_open(&r, direct, REG, 1 << 20);
  paint(&r);
  uint64_t base = (uint64_t)(uintptr_t)rig_region(&r);
  char tok[TOKEN_CAP];
  agent_serves(&r);
  mint(r.cli, r.mr, 0, REG, CUOBJ_OP_GET, tok);
  forge(tok, bump_rkey, NULL);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base, REG, tok, 0), -EACCES);
  agent_serves(&r);
  mint(r.cli, r.mr, 0, REG, CUOBJ_OP_GET, tok);
  forge(tok, grow, NULL);
  CHECK_EQ_INT(cuobj_server_handle_put(r.srv, "k", r.sbuf, base, REG + 4096, tok, 0), -ERANGE);
  agent_serves(&r);
  CHECK_EQ_INT(stats_of(r.srv).connects, 1); /* clean refusals kept the cached connection */

  /* a second gateway with the wrong DC key, and a raw peer breaking the protocol */
  cuobj_server_t *other = keyed_server(DC_KEY ^ 1);
  cuobj_rdma_buffer_t *ob = cuobj_server_register_buffer(other, r.smem, r.smem_size);
  mint(r.cli, r.mr, 0, REG, CUOBJ_OP_GET, tok);
  CHECK_EQ_INT(cuobj_server_handle_get(other, "k", ob, base, REG, tok, 0), -EACCES);
  cuobj_server_deregister_buffer(other, ob);
  cuobj_server_destroy(other);
  int fd = session((uint16_t)rdma_host_client_agent_port(r.cli));
  snic_hdr_t bogus = snic_hdr_make(99);
  CHECK_EQ_INT(sock_send_hdr(fd, &bogus, NULL, 0), 0);
  expect_error_then_eof(fd);

  agent_serves(&r);
  CHECK_EQ_INT(stats_of(r.srv).connects, 1);
  check_guards(&r);
  rig_close(&r);
}
static void unharmed_tcp(void) { unharmed(0); }
static void unharmed_direct(void) { unharmed(1); }

FUZZ_MAIN(CASE(agent_frames), CASE(oversized_frames), {"refusals_leave_peer_unharmed_tcp", unharmed_tcp},
          {"refusals_leave_peer_unharmed_direct", unharmed_direct})
