/* test_handshake.c — the DC key never crosses the wire, and nothing is served or sent before
 * both sides proved they know it (issue 16 item 6, wire v2: SOFTNIC.md).
 *  - A fake agent that does not know the key (any address a token names) gets one HELLO with a
 *    nonce: no key bytes, no proof of ours, no request; the transfer fails with -EACCES.
 *  - A gateway with the wrong key is refused by a real agent: AUTH_ACK(-EACCES) naming no pid
 *    and no cookie, then the connection closes; no request is served.
 *  - Nonces are fresh per connection: a replayed gateway proof is refused. */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_softnic.h"
#include "softnic/auth.h"
#include "softnic/sock.h"
#include "softnic/wire.h"

#define REG (64u << 10)
#define DC_KEY 0xffeeddccull
#define SECRET_KEY 0x0123456789abcdefull /* distinct bytes: easy to spot in a byte stream */

/* ---- a listener that is no agent: records what the gateway sends ----------------------- */

typedef struct impostor {
  int lfd;
  uint16_t port;
  pthread_t th;
  uint8_t seen[8192]; /* every byte the gateway sent on the connection */
  size_t n_seen;
} impostor_t;

static void *impostor_main(void *arg) {
  impostor_t *m = arg;
  int fd = accept(m->lfd, NULL, NULL);
  if (fd < 0) return NULL;
  sock_set_timeouts(fd, 5000);
  /* the first frame, whatever it is, then an answer that claims success with a made-up proof */
  snic_hdr_t h;
  if (sock_recv_all(fd, m->seen, SNIC_HDR_LEN) == 0 && (snic_hdr_unpack(m->seen, &h), h.length < 4096) &&
      sock_recv_all(fd, m->seen + SNIC_HDR_LEN, (size_t)h.length) == 0) {
    m->n_seen = SNIC_HDR_LEN + (size_t)h.length;
    snic_hdr_t ack = snic_hdr_make(SNIC_HELLO_ACK);
    uint8_t fake[SNIC_NONCE_LEN + SNIC_MAC_LEN];
    test_fill(fake, sizeof fake, 99);
    ack.length = sizeof fake;
    sock_send_hdr(fd, &ack, fake, sizeof fake);
    /* then everything else the gateway sends until it hangs up */
    for (ssize_t n; m->n_seen < sizeof m->seen && (n = recv(fd, m->seen + m->n_seen, sizeof m->seen - m->n_seen, 0)) > 0;)
      m->n_seen += (size_t)n;
  }
  close(fd);
  return NULL;
}

static int contains(const uint8_t *hay, size_t n, const uint8_t *needle, size_t k) {
  for (size_t i = 0; i + k <= n; i++)
    if (memcmp(hay + i, needle, k) == 0) return 1;
  return 0;
}

/* One transfer against an impostor; returns the HELLO's nonce (payload) for freshness checks. */
static void gateway_meets_impostor(cuobj_server_t *s, cuobj_rdma_buffer_t *b, uint8_t nonce[SNIC_NONCE_LEN]) {
  impostor_t m = {0};
  m.lfd = loopback_listen(&m.port);
  CHECK(pthread_create(&m.th, NULL, impostor_main, &m) == 0);
  char tok[TOKEN_CAP];
  loopback_token(0x10000, 4096, m.port, tok);
  ssize_t rc = cuobj_server_handle_put(s, "k", b, 0x10000, 4096, tok, 0);
  pthread_join(m.th, NULL);
  close(m.lfd);

  uint8_t le[8], be[8];
  for (int i = 0; i < 8; i++) le[i] = (uint8_t)(SECRET_KEY >> (8 * i)), be[7 - i] = le[i];
  if (contains(m.seen, m.n_seen, le, 8) || contains(m.seen, m.n_seen, be, 8))
    fprintf(stderr, "the gateway sent its DC key to a peer that is no agent\n");
  CHECK(!contains(m.seen, m.n_seen, le, 8) && !contains(m.seen, m.n_seen, be, 8));
  snic_hdr_t h;
  CHECK_EQ_INT(snic_hdr_unpack(m.seen, &h), 0);
  CHECK_EQ_INT(h.type, SNIC_HELLO);
  CHECK_EQ_INT(h.arg, 0);
  CHECK_EQ_INT(h.length, SNIC_NONCE_LEN);
  if (m.n_seen != SNIC_HDR_LEN + SNIC_NONCE_LEN) fprintf(stderr, "the gateway sent %zu more bytes after its HELLO\n", m.n_seen - SNIC_HDR_LEN - SNIC_NONCE_LEN);
  CHECK_EQ_INT(m.n_seen, SNIC_HDR_LEN + SNIC_NONCE_LEN); /* no proof of ours, no request */
  CHECK_EQ_INT(rc, -EACCES); /* "wrong DC key" */
  memcpy(nonce, m.seen + SNIC_HDR_LEN, SNIC_NONCE_LEN);
}

static void impostor_gets_no_key_material(void) {
  cuobj_rdma_tunables_t t;
  cuobj_server_tunables_default(&t);
  t.dc_key = SECRET_KEY;
  t.io_timeout_ms = t.connect_timeout_ms = 5000;
  cuobj_server_t *s = cuobj_server_create_with_config(NULL, 0, CUOBJ_PROTO_RDMA_DC_V1, &t);
  CHECK(s != NULL);
  uint8_t *mem = cuobj_server_alloc_host_buffer(s, 4096);
  memset(mem, 0x33, 4096);
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, mem, 4096);
  uint8_t n1[SNIC_NONCE_LEN], n2[SNIC_NONCE_LEN];
  gateway_meets_impostor(s, b, n1);
  gateway_meets_impostor(s, b, n2);
  CHECK(memcmp(n1, n2, SNIC_NONCE_LEN) != 0); /* a fresh nonce per connection */
  for (int i = 0; i < 4096; i++) CHECK(mem[i] == 0x33); /* nothing the impostor sent was stored */
  cuobj_server_stats_t st = stats_of(s);
  CHECK_EQ_INT(st.connects, 2);
  CHECK_EQ_INT(st.failed_transfers, 2);
  CHECK_EQ_INT(st.tcp_transfers + st.direct_transfers, 0);
  cuobj_server_deregister_buffer(s, b);
  cuobj_server_free_host_buffer(s, mem);
  cuobj_server_destroy(s);
}

/* ---- a real agent against a gateway with the wrong key ---------------------------------- */

static void wrong_key_gateway_refused_by_agent(void) {
  rig_t r;
  rig_open(&r, 1, REG, REG);
  test_fill(rig_region(&r), REG, 5);
  uint64_t before = test_hash(rig_region(&r), REG);
  uint16_t port = (uint16_t)rdma_host_client_agent_port(r.cli);
  int fd = agent_connect(port);
  int agent_proof_ok = 1;
  snic_hdr_t ack = gateway_handshake(fd, DC_KEY ^ 0x10, 1, &agent_proof_ok);
  CHECK_EQ_INT(agent_proof_ok, 0); /* and a gateway checks that first: it would not even send AUTH */
  CHECK_EQ_INT(ack.status, -EACCES);
  CHECK(ack.addr == 0 && ack.arg == 0 && ack.flags == 0 && ack.length == 0); /* no pid, no cookie */
  /* the agent hung up: a request after the refusal is not served */
  snic_hdr_t req = snic_hdr_make(SNIC_READ_REQ);
  req.rkey = rdma_host_mr_rkey(r.mr);
  req.addr = (uint64_t)(uintptr_t)rig_region(&r);
  req.length = 16;
  sock_send_hdr(fd, &req, NULL, 0);
  uint8_t byte;
  CHECK(recv(fd, &byte, 1, 0) <= 0);
  close(fd);

  /* the real server with the wrong key: -EACCES both ways, the region untouched */
  cuobj_server_t *s = keyed_server(DC_KEY ^ 0x10);
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, r.smem, r.smem_size);
  char tok[TOKEN_CAP];
  mint(r.cli, r.mr, 0, REG, CUOBJ_OP_GET, tok);
  memset(r.smem, 0x44, REG);
  uint64_t base = (uint64_t)(uintptr_t)rig_region(&r);
  CHECK_EQ_INT(cuobj_server_handle_get(s, "k", b, base, REG, tok, 0), -EACCES);
  CHECK_EQ_INT(cuobj_server_handle_put(s, "k", b, base, REG, tok, 0), -EACCES);
  for (size_t i = 0; i < REG; i++) CHECK(r.smem[i] == 0x44);
  CHECK_EQ_INT(test_hash(rig_region(&r), REG), before);
  CHECK_EQ_INT(stats_of(s).proofs_ok + stats_of(s).proofs_failed, 0);
  cuobj_server_deregister_buffer(s, b);
  cuobj_server_destroy(s);
  rig_close(&r);
}

/* ---- freshness ----------------------------------------------------------------------------- */

/* HELLO with nonce ns; returns the agent's nonce (and checks its proof under DC_KEY). */
static void hello(int fd, const uint8_t ns[SNIC_NONCE_LEN], uint8_t na[SNIC_NONCE_LEN]) {
  snic_hdr_t h = snic_hdr_make(SNIC_HELLO), a;
  h.length = SNIC_NONCE_LEN;
  uint8_t got[SNIC_NONCE_LEN + SNIC_MAC_LEN], want[SNIC_MAC_LEN];
  CHECK_EQ_INT(sock_send_hdr(fd, &h, ns, SNIC_NONCE_LEN), 0);
  CHECK_EQ_INT(sock_recv_hdr(fd, &a), 0);
  CHECK_EQ_INT(a.type, SNIC_HELLO_ACK);
  CHECK_EQ_INT(a.length, sizeof got);
  CHECK_EQ_INT(sock_recv_all(fd, got, sizeof got), 0);
  snic_mac_agent(DC_KEY, ns, got, want);
  CHECK(snic_mac_equal(want, got + SNIC_NONCE_LEN));
  memcpy(na, got, SNIC_NONCE_LEN);
}

static int32_t auth(int fd, const uint8_t mac[SNIC_MAC_LEN]) {
  snic_hdr_t h = snic_hdr_make(SNIC_AUTH), a;
  h.length = SNIC_MAC_LEN;
  CHECK_EQ_INT(sock_send_hdr(fd, &h, mac, SNIC_MAC_LEN), 0);
  CHECK_EQ_INT(sock_recv_hdr(fd, &a), 0);
  CHECK_EQ_INT(a.type, SNIC_AUTH_ACK);
  return a.status;
}

static void replayed_gateway_proof_refused(void) {
  rig_t r;
  rig_open(&r, 0, REG, REG);
  uint16_t port = (uint16_t)rdma_host_client_agent_port(r.cli);
  uint8_t ns[SNIC_NONCE_LEN], na1[SNIC_NONCE_LEN], na2[SNIC_NONCE_LEN], mac[SNIC_MAC_LEN];
  test_fill(ns, sizeof ns, 1);
  int fd = agent_connect(port);
  hello(fd, ns, na1);
  snic_mac_server(DC_KEY, na1, ns, mac);
  CHECK_EQ_INT(auth(fd, mac), 0); /* the genuine proof */
  close(fd);
  fd = agent_connect(port); /* an eavesdropper replays the same HELLO and the recorded proof */
  hello(fd, ns, na2);
  CHECK(memcmp(na1, na2, SNIC_NONCE_LEN) != 0);
  CHECK_EQ_INT(auth(fd, mac), -EACCES);
  close(fd);
  rig_close(&r);
}

TEST_MAIN(CASE(impostor_gets_no_key_material), CASE(wrong_key_gateway_refused_by_agent),
          CASE(replayed_gateway_proof_refused))
