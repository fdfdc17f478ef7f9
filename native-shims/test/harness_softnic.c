/* harness_softnic.c — in-process rig and forked peer for the softnic tests (see the header). */
#include "harness_softnic.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "softnic/auth.h"
#include "softnic/sock.h"

cuobj_server_t *test_server(int allow_direct, uint32_t io_timeout_ms) {
  cuobj_rdma_tunables_t t;
  cuobj_server_tunables_default(&t);
  t.allow_direct = (uint32_t)allow_direct;
  t.io_timeout_ms = io_timeout_ms;
  t.connect_timeout_ms = io_timeout_ms;
  t.frame_size = 256 << 10; /* small frames: large transfers really cross several */
  cuobj_server_t *s = cuobj_server_create_with_config(NULL, 0, CUOBJ_PROTO_RDMA_DC_V1, &t);
  CHECK(s != NULL);
  return s;
}

void mint(rdma_host_client_t *c, rdma_host_mr_t *mr, size_t off, size_t size, uint32_t op, char out[TOKEN_CAP]) {
  CHECK_EQ_INT(rdma_host_client_token(c, mr, off, size, op, out, TOKEN_CAP), 81);
}

void forge(char tok[TOKEN_CAP], void (*edit)(cuobj_token_t *t, void *arg), void *arg) {
  cuobj_token_t t;
  CHECK_EQ_INT(cuobj_token_parse(tok, &t), 0);
  edit(&t, arg);
  CHECK(cuobj_token_format(&t, tok, TOKEN_CAP) > 0);
}

cuobj_server_stats_t stats_of(cuobj_server_t *s) {
  cuobj_server_stats_t st;
  CHECK_EQ_INT(cuobj_server_get_stats(s, &st), 0);
  return st;
}

void rig_open(rig_t *r, int direct, size_t region_size, size_t server_size) {
  memset(r, 0, sizeof *r);
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  cfg.allow_direct = (uint32_t)direct;
  cfg.io_timeout_ms = 5000;
  r->cli = rdma_host_client_create(&cfg);
  CHECK(r->cli != NULL);
  r->region_size = region_size;
  r->cmem = rdma_host_client_alloc(r->cli, region_size + 8192);
  CHECK(r->cmem != NULL);
  r->mr = rdma_host_client_register(r->cli, r->cmem + 4096, region_size);
  CHECK(r->mr != NULL);
  r->srv = test_server(direct, 5000);
  r->smem_size = server_size;
  r->smem = cuobj_server_alloc_host_buffer(r->srv, server_size);
  CHECK(r->smem != NULL);
  r->sbuf = cuobj_server_register_buffer(r->srv, r->smem, server_size);
  CHECK(r->sbuf != NULL);
}

uint8_t *rig_region(const rig_t *r) { return r->cmem + 4096; }

void rig_close(rig_t *r) {
  CHECK_EQ_INT(cuobj_server_deregister_buffer(r->srv, r->sbuf), 0);
  cuobj_server_free_host_buffer(r->srv, r->smem);
  cuobj_server_destroy(r->srv);
  CHECK_EQ_INT(rdma_host_client_deregister(r->cli, r->mr), 0);
  CHECK_EQ_INT(rdma_host_client_free(r->cli, r->cmem), 0);
  rdma_host_client_destroy(r->cli);
}

const char *peer_netns = NULL;
int peer_uid = -1;
int peer_dumpable = 1;

int join_netns(const char *name) {
  char path[256];
  snprintf(path, sizeof path, "/var/run/netns/%s", name);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  int rc = setns(fd, CLONE_NEWNET) == 0 ? 0 : -errno;
  close(fd);
  return rc;
}

/* ---- forked peer ---------------------------------------------------------------------- */

typedef struct cmd {
  char op; /* T token, H hash, F fill, Q quit */
  uint64_t a, b, c;
} cmd_t;

typedef struct resp {
  int64_t rc;
  uint64_t v, addr, size;
  uint16_t port;
  char token[TOKEN_CAP];
} resp_t;

static void read_exact(int fd, void *p, size_t n) {
  uint8_t *b = p;
  while (n > 0) {
    ssize_t k = read(fd, b, n);
    if (k < 0 && errno == EINTR) continue;
    CHECK(k > 0);
    b += k;
    n -= (size_t)k;
  }
}

static void write_exact(int fd, const void *p, size_t n) { CHECK(write(fd, p, n) == (ssize_t)n); }

static void peer_child(int cmd_r, int resp_w, size_t size, uint64_t seed, int allow_direct, uint64_t dc_key,
                       const char *agent_addr) {
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  cfg.allow_direct = (uint32_t)allow_direct;
  cfg.dc_key = dc_key;
  cfg.agent_addr = agent_addr;
  cfg.io_timeout_ms = 5000;
  rdma_host_client_t *c = rdma_host_client_create(&cfg);
  CHECK(c != NULL);
  uint8_t *mem = rdma_host_client_alloc(c, size);
  CHECK(mem != NULL);
  test_fill(mem, size, seed);
  rdma_host_mr_t *mr = rdma_host_client_register(c, mem, size);
  CHECK(mr != NULL);
  resp_t r = {.port = (uint16_t)rdma_host_client_agent_port(c), .addr = (uint64_t)(uintptr_t)mem, .size = size};
  write_exact(resp_w, &r, sizeof r);
  for (;;) {
    cmd_t k;
    read_exact(cmd_r, &k, sizeof k);
    memset(&r, 0, sizeof r);
    if (k.op == 'T') r.rc = rdma_host_client_token(c, mr, k.a, k.b, (uint32_t)k.c, r.token, sizeof r.token);
    if (k.op == 'H') r.v = test_hash(mem + k.a, k.b);
    if (k.op == 'F') test_fill(mem, size, k.a);
    if (k.op == 'Q') break;
    write_exact(resp_w, &r, sizeof r);
  }
  CHECK_EQ_INT(rdma_host_client_deregister(c, mr), 0);
  CHECK_EQ_INT(rdma_host_client_free(c, mem), 0);
  rdma_host_client_destroy(c);
  write_exact(resp_w, &r, sizeof r);
  _exit(0);
}

void peer_start(peer_t *p, size_t size, uint64_t seed, int allow_direct, uint64_t dc_key, const char *agent_addr) {
  int cmd[2], resp[2];
  CHECK(pipe(cmd) == 0 && pipe(resp) == 0);
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(cmd[1]);
    close(resp[0]);
    if (peer_netns != NULL) CHECK_EQ_INT(join_netns(peer_netns), 0);
    if (peer_uid >= 0) {
      CHECK(setresgid((gid_t)peer_uid, (gid_t)peer_uid, (gid_t)peer_uid) == 0);
      CHECK(setresuid((uid_t)peer_uid, (uid_t)peer_uid, (uid_t)peer_uid) == 0);
      CHECK(prctl(PR_SET_DUMPABLE, peer_dumpable ? 1 : 0) == 0); /* a uid change clears it */
    }
    peer_child(cmd[0], resp[1], size, seed, allow_direct, dc_key, agent_addr);
  }
  close(cmd[0]);
  close(resp[1]);
  p->pid = pid;
  p->cmd_w = cmd[1];
  p->resp_r = resp[0];
  resp_t r;
  read_exact(p->resp_r, &r, sizeof r);
  p->port = r.port;
  p->addr = r.addr;
  p->size = r.size;
}

static resp_t call(peer_t *p, char op, uint64_t a, uint64_t b, uint64_t c) {
  cmd_t k = {op, a, b, c};
  write_exact(p->cmd_w, &k, sizeof k);
  resp_t r;
  read_exact(p->resp_r, &r, sizeof r);
  return r;
}

void peer_token(peer_t *p, size_t off, size_t size, uint32_t op, char out[TOKEN_CAP]) {
  resp_t r = call(p, 'T', off, size, op);
  CHECK_EQ_INT(r.rc, 81);
  memcpy(out, r.token, TOKEN_CAP);
}

uint64_t peer_hash(peer_t *p, size_t off, size_t len) { return call(p, 'H', off, len, 0).v; }
void peer_fill(peer_t *p, uint64_t seed) { call(p, 'F', seed, 0, 0); }

void peer_stop(peer_t *p) {
  call(p, 'Q', 0, 0, 0);
  int st;
  CHECK(waitpid(p->pid, &st, 0) == p->pid);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  close(p->cmd_w);
  close(p->resp_r);
}

void peer_kill(peer_t *p) {
  kill(p->pid, SIGKILL);
  waitpid(p->pid, NULL, 0);
  close(p->cmd_w);
  close(p->resp_r);
}

int fake_agent_handshake(int fd, uint64_t dc_key, pid_t pid, uint64_t cookie_addr) {
  snic_hdr_t h;
  uint8_t ns[SNIC_NONCE_LEN], mine[SNIC_NONCE_LEN + SNIC_MAC_LEN], theirs[SNIC_MAC_LEN], want[SNIC_MAC_LEN];
  int rc = sock_recv_hdr(fd, &h);
  if (rc == 0 && (h.type != SNIC_HELLO || h.length != sizeof ns)) rc = -EPROTO;
  if (rc == 0) rc = sock_recv_all(fd, ns, sizeof ns);
  if (rc == 0) rc = snic_nonce(mine);
  if (rc) return rc;
  snic_mac_agent(dc_key, ns, mine, mine + SNIC_NONCE_LEN);
  snic_hdr_t hello_ack = snic_hdr_make(SNIC_HELLO_ACK);
  hello_ack.length = sizeof mine;
  rc = sock_send_hdr(fd, &hello_ack, mine, sizeof mine);
  if (rc == 0) rc = sock_recv_hdr(fd, &h);
  if (rc == 0 && (h.type != SNIC_AUTH || h.length != sizeof theirs)) rc = -EPROTO;
  if (rc == 0) rc = sock_recv_all(fd, theirs, sizeof theirs);
  if (rc) return rc;
  snic_mac_server(dc_key, mine, ns, want);
  snic_hdr_t ack = snic_hdr_make(SNIC_AUTH_ACK);
  if (!snic_mac_equal(theirs, want)) {
    ack.status = -EACCES;
    sock_send_hdr(fd, &ack, NULL, 0);
    return -EACCES;
  }
  ack.addr = (uint64_t)pid;
  if (cookie_addr != 0) {
    ack.flags = SNIC_FLAG_DIRECT;
    ack.arg = cookie_addr;
    ack.length = SNIC_COOKIE_LEN;
  }
  return sock_send_hdr(fd, &ack, NULL, 0);
}

snic_hdr_t gateway_handshake(int fd, uint64_t dc_key, int want_direct, int *agent_proof_ok) {
  uint8_t ns[SNIC_NONCE_LEN], theirs[SNIC_NONCE_LEN + SNIC_MAC_LEN], mac[SNIC_MAC_LEN];
  CHECK_EQ_INT(snic_nonce(ns), 0);
  snic_hdr_t h = snic_hdr_make(SNIC_HELLO), a;
  h.flags = want_direct ? SNIC_FLAG_DIRECT : 0;
  h.length = sizeof ns;
  CHECK_EQ_INT(sock_send_hdr(fd, &h, ns, sizeof ns), 0);
  CHECK_EQ_INT(sock_recv_hdr(fd, &a), 0);
  CHECK_EQ_INT(a.type, SNIC_HELLO_ACK);
  CHECK_EQ_INT(a.length, sizeof theirs);
  CHECK_EQ_INT(sock_recv_all(fd, theirs, sizeof theirs), 0);
  snic_mac_agent(dc_key, ns, theirs, mac);
  if (agent_proof_ok != NULL) *agent_proof_ok = snic_mac_equal(mac, theirs + SNIC_NONCE_LEN);
  snic_mac_server(dc_key, theirs, ns, mac);
  h = snic_hdr_make(SNIC_AUTH);
  h.length = sizeof mac;
  CHECK_EQ_INT(sock_send_hdr(fd, &h, mac, sizeof mac), 0);
  CHECK_EQ_INT(sock_recv_hdr(fd, &a), 0);
  CHECK_EQ_INT(a.type, SNIC_AUTH_ACK);
  return a;
}

snic_hdr_t agent_ask(int fd, uint8_t type, uint32_t rkey, uint64_t addr, uint64_t len, uint64_t arg) {
  snic_hdr_t h = snic_hdr_make(type), a;
  h.rkey = rkey;
  h.addr = addr;
  h.length = len;
  h.arg = arg;
  CHECK_EQ_INT(sock_send_hdr(fd, &h, NULL, 0), 0);
  CHECK_EQ_INT(sock_recv_hdr(fd, &a), 0);
  return a;
}

void agent_expect_error_then_eof(int fd) {
  snic_hdr_t e;
  CHECK_EQ_INT(sock_recv_hdr(fd, &e), 0);
  CHECK_EQ_INT(e.type, SNIC_ERROR);
  CHECK_EQ_INT(e.status, -EPROTO);
  char b;
  CHECK(recv(fd, &b, 1, 0) == 0);
}
