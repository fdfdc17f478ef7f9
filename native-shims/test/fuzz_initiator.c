/* fuzz_initiator.c — the gateway side (a real cuobj server) against a hostile agent, under
 * ASan/UBSan. A fake agent thread answers each connection with a seeded random script: a
 * (mostly valid, sometimes broken) handshake, then random replies to the request — wrong types,
 * positive / huge statuses, DATA frames with edge offsets and lengths (up to 2^64-1), short
 * payloads, truncated headers, WRITE_ACKs with wrong lengths — and then hangs up.
 * Every transfer must end with exactly the requested size or a negative errno, the server must
 * never write outside the local window of its buffer (nor at all into it on a GET), and after
 * the run a transfer against a well-behaved agent still works. Cases counted: transfers.
 * The server's direct path is off here: a fake AUTH_ACK names a pid and a cookie address. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "fuzz_support.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_softnic.h"
#include "softnic/auth.h"
#include "softnic/sock.h"
#include "softnic/wire.h"

#define XFER 4096u
#define LOCAL_OFF 4096u
#define SBUF (3 * 4096u)
#define DC_KEY 0xffeeddccull

typedef struct fake {
  int lfd;
  uint16_t port;
  uint64_t rng;
  atomic_int stop;
  pthread_t th;
} fake_t;

static const uint8_t k_replies[] = {SNIC_READ_RESP, SNIC_WRITE_READY, SNIC_WRITE_ACK, SNIC_DATA,
                                    SNIC_ERROR,     SNIC_DIRECT_ACK,  SNIC_HELLO_ACK};

/* Sends a frame; 0 when it was cut short (the fake must hang up then, or both sides wait). */
static int send_raw(int fd, const snic_hdr_t *h, uint64_t *rng, size_t payload) {
  uint8_t raw[SNIC_HDR_LEN], data[XFER + 64];
  snic_hdr_pack(h, raw);
  size_t hdr = test_rand(rng) % 24 == 0 ? (size_t)(test_rand(rng) % SNIC_HDR_LEN) : SNIC_HDR_LEN;
  if (test_rand(rng) % 24 == 0) raw[test_rand(rng) % SNIC_HDR_LEN] ^= 0x10;
  if (sock_send_all(fd, raw, hdr) != 0 || hdr < SNIC_HDR_LEN) return 0;
  size_t cap = payload > sizeof data ? sizeof data : payload;
  test_fill(data, cap, test_rand(rng));
  if (cap && sock_send_all(fd, data, cap) != 0) return 0;
  return cap == payload;
}

/* One reply frame to a request: right type and shape most of the time, wrong in one field. */
static int reply_frame(int fd, uint64_t *rng, const snic_hdr_t *req, uint64_t *offset) {
  uint64_t r = test_rand(rng);
  uint8_t want = req->type == SNIC_READ_REQ ? SNIC_READ_RESP : SNIC_WRITE_READY;
  snic_hdr_t h = snic_hdr_make(r % 3 == 0 ? k_replies[(r >> 2) % sizeof k_replies] : want);
  if (*offset > 0 || r % 5 == 0) h.type = req->type == SNIC_READ_REQ ? SNIC_DATA : SNIC_WRITE_ACK;
  h.status = test_rand(rng) % 4 ? 0 : (int32_t)(test_rand(rng) % 3 ? -(int32_t)(test_rand(rng) % 200) : (int32_t)test_rand(rng));
  h.length = test_rand(rng) % 3 ? req->length - *offset : fuzz_edge_u64(rng);
  h.arg = test_rand(rng) % 3 ? *offset : fuzz_edge_u64(rng);
  size_t payload = 0;
  if (h.type == SNIC_DATA) {
    uint64_t n = test_rand(rng) % 2 ? h.length : test_rand(rng) % (XFER + 64);
    payload = (size_t)(n < XFER + 64 ? n : XFER + 64);
    if (h.length < req->length && test_rand(rng) % 2) *offset += h.length; /* a split in parts */
  }
  return send_raw(fd, &h, rng, payload);
}

/* A handshake gone wrong: after the gateway's HELLO, a random HELLO_ACK (type, status, length,
 * a payload that is no valid proof); then hang up. */
static void broken_handshake(int fd, uint64_t *rng) {
  snic_hdr_t h;
  uint8_t ns[SNIC_NONCE_LEN];
  if (sock_recv_hdr(fd, &h) != 0 || h.length != sizeof ns || sock_recv_all(fd, ns, sizeof ns) != 0) return;
  snic_hdr_t ack = snic_hdr_make(test_rand(rng) % 3 ? SNIC_HELLO_ACK : (uint8_t)test_rand(rng));
  ack.status = test_rand(rng) % 2 ? 0 : (int32_t)test_rand(rng);
  ack.length = test_rand(rng) % 2 ? SNIC_NONCE_LEN + SNIC_MAC_LEN : fuzz_edge_u64(rng);
  send_raw(fd, &ack, rng, (size_t)(ack.length < 256 ? ack.length : 256));
}

static void serve_one(int fd, uint64_t *rng) {
  sock_set_timeouts(fd, 2000);
  snic_hdr_t h;
  if (test_rand(rng) % 8 == 0) {
    broken_handshake(fd, rng);
    return;
  }
  /* a valid handshake (this agent knows the key) naming any pid / cookie address */
  if (fake_agent_handshake(fd, DC_KEY, (pid_t)fuzz_edge_u64(rng), fuzz_edge_u64(rng)) != 0) return;
  if (sock_recv_hdr(fd, &h) != 0) return;
  if (h.type == SNIC_WRITE_REQ && test_rand(rng) % 2) { /* take the server's DATA first */
    snic_hdr_t ready = snic_hdr_make(SNIC_WRITE_READY), d;
    sock_send_hdr(fd, &ready, NULL, 0);
    uint8_t sink[XFER];
    if (sock_recv_hdr(fd, &d) == 0 && d.length <= sizeof sink) sock_recv_all(fd, sink, (size_t)d.length);
  }
  uint64_t offset = 0;
  unsigned frames = 1 + (unsigned)(test_rand(rng) % 4);
  unsigned i = 0;
  while (i++ < frames && reply_frame(fd, rng, &h, &offset)) continue;
}

static void *fake_main(void *arg) {
  fake_t *f = arg;
  while (!atomic_load(&f->stop)) {
    struct pollfd p = {.fd = f->lfd, .events = POLLIN};
    if (poll(&p, 1, 50) <= 0) continue;
    int fd = accept(f->lfd, NULL, NULL);
    if (fd < 0) continue;
    serve_one(fd, &f->rng);
    close(fd); /* always hang up: the server never waits on a silent agent */
  }
  return NULL;
}

/* The whole transfer, or an errno of SOFTNIC.md's table (never a number the agent made up; since ABI
 * 1.9 that includes the progress gate's -ETIME and -ENODATA). */
static const ssize_t k_errnos[] = {-EPROTO, -EIO, -ETIMEDOUT, -EACCES, -ERANGE, -EPERM, -ENODEV, -ETIME, -ENODATA};

static int allowed(ssize_t rc) {
  if (rc == (ssize_t)XFER) return 1;
  for (size_t i = 0; i < sizeof k_errnos / sizeof k_errnos[0]; i++)
    if (rc == k_errnos[i]) return 1;
  return 0;
}

static void hostile_agent(void) {
  uint64_t runs = fuzz_runs(300);
  fake_t f = {.rng = fuzz_seed("hostile_agent")};
  f.lfd = loopback_listen(&f.port);
  CHECK(pthread_create(&f.th, NULL, fake_main, &f) == 0);
  alarm(600);

  cuobj_server_t *s = test_server(0, 2000);
  uint8_t *mem = cuobj_server_alloc_host_buffer(s, SBUF);
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, mem, SBUF);
  char tok[TOKEN_CAP];
  loopback_token(0x10000, XFER, f.port, tok);
  uint64_t ok = 0, rng = f.rng ^ 0xabcdef;
  for (uint64_t i = 0; i < runs; i++) {
    memset(mem, 0x33, SBUF);
    int get = (int)(test_rand(&rng) & 1);
    ssize_t rc = get ? cuobj_server_handle_get_ex(s, "k", b, LOCAL_OFF, 0x10000, XFER, tok, 0)
                     : cuobj_server_handle_put_ex(s, "k", b, LOCAL_OFF, 0x10000, XFER, tok, 0);
    if (!allowed(rc)) fprintf(stderr, "transfer %llu: rc %zd\n", (unsigned long long)i, rc);
    CHECK(allowed(rc));
    ok += rc == (ssize_t)XFER;
    for (size_t k = 0; k < SBUF; k++) {
      int inside = k >= LOCAL_OFF && k < LOCAL_OFF + XFER;
      if (get || !inside) CHECK(mem[k] == 0x33); /* a GET reads its buffer; a PUT fills only its window */
    }
  }
  atomic_store(&f.stop, 1);
  pthread_join(f.th, NULL);
  close(f.lfd);
  fprintf(stderr, "hostile_agent: %llu of %llu transfers completed\n", (unsigned long long)ok,
          (unsigned long long)runs);

  /* the same server, a well-behaved agent: still works */
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  cfg.allow_direct = 0;
  rdma_host_client_t *cli = rdma_host_client_create(&cfg);
  uint8_t *cm = rdma_host_client_alloc(cli, XFER);
  rdma_host_mr_t *mr = rdma_host_client_register(cli, cm, XFER);
  test_fill(cm, XFER, 5);
  mint(cli, mr, 0, XFER, CUOBJ_OP_PUT, tok);
  CHECK_EQ_INT(cuobj_server_handle_put(s, "k", b, (uint64_t)(uintptr_t)cm, XFER, tok, 0), XFER);
  CHECK(memcmp(mem, cm, XFER) == 0);
  CHECK_EQ_INT(rdma_host_client_deregister(cli, mr), 0);
  CHECK_EQ_INT(rdma_host_client_free(cli, cm), 0);
  rdma_host_client_destroy(cli);
  cuobj_server_deregister_buffer(s, b);
  cuobj_server_free_host_buffer(s, mem);
  cuobj_server_destroy(s);
  alarm(0);
  fuzz_report("hostile_agent", runs);
}

/* ---- an agent that names another process ------------------------------------------------ */

/* A secret in the gateway's memory; after fork the child knows its address (same layout). */
static uint8_t g_secret[SNIC_COOKIE_LEN] = "gateway memory, never to be sent";

/* Child: a fake agent that offers the direct path but names its PARENT (the gateway) as its pid
 * and g_secret as the cookie. Exit 0 = the gateway stayed on TCP; 1 = it sent the parent's bytes
 * in a PROVE; 2 = it went on to a direct transfer. */
static void pid_liar(int lfd) {
  int fd = accept(lfd, NULL, NULL);
  if (fd < 0) _exit(10);
  sock_set_timeouts(fd, 5000);
  snic_hdr_t h;
  if (fake_agent_handshake(fd, DC_KEY, getppid(), (uint64_t)(uintptr_t)g_secret) != 0) _exit(11);
  if (sock_recv_hdr(fd, &h) != 0) _exit(12);
  if (h.type == SNIC_PROVE) _exit(1);
  if (h.type == SNIC_DIRECT_BEGIN) _exit(2);
  snic_hdr_t no = snic_hdr_make(h.type == SNIC_READ_REQ ? SNIC_READ_RESP : SNIC_WRITE_READY);
  no.status = -EACCES;
  sock_send_hdr(fd, &no, NULL, 0);
  _exit(0);
}

static void agent_naming_another_pid(void) {
  uint16_t port;
  int lfd = loopback_listen(&port);
  fflush(NULL);
  pid_t child = fork();
  CHECK(child >= 0);
  if (child == 0) pid_liar(lfd);
  close(lfd);
  cuobj_server_t *s = test_server(1, 5000); /* the direct path allowed, as by default */
  uint8_t *mem = cuobj_server_alloc_host_buffer(s, XFER);
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, mem, XFER);
  char tok[TOKEN_CAP];
  loopback_token(0x10000, XFER, port, tok);
  CHECK_EQ_INT(cuobj_server_handle_put(s, "k", b, 0x10000, XFER, tok, 0), -EACCES);
  int st;
  CHECK(waitpid(child, &st, 0) == child);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
    fprintf(stderr, "fake agent: %s\n", WIFEXITED(st) && WEXITSTATUS(st) == 1 ? "received the gateway's memory in PROVE"
                                        : WIFEXITED(st) && WEXITSTATUS(st) == 2 ? "was offered a direct transfer"
                                                                                 : "failed");
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  CHECK_EQ_INT(stats_of(s).proofs_ok, 0);
  CHECK_EQ_INT(stats_of(s).proofs_failed, 1);
  cuobj_server_deregister_buffer(s, b);
  cuobj_server_free_host_buffer(s, mem);
  cuobj_server_destroy(s);
}

FUZZ_MAIN(CASE(hostile_agent), CASE(agent_naming_another_pid))
