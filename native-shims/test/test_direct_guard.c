/* test_direct_guard.c — the direct path (process_vm_*) must only ever touch the process that
 * proved itself, as it is at proof time (issue 16 item 1). Runs as root, like a gateway that
 * should not but does (skips otherwise).
 *  - The reproduced attack: an agent running as nobody forks a child that shares the agent's
 *    socket, names the child's pid, lets the gateway prove it, and the child then execs a
 *    setuid-root program (same pid). No byte of that program may be read (PUT) or written (GET):
 *    the transfer goes over TCP (the agent's own bytes), counted as a revoked proof.
 *  - The same with a plain program exec'd by a same-uid child (the address space changed).
 *  - Privilege rule: a root gateway and a client running as nobody use TCP unless the server
 *    option direct_privileged is set; with it, direct works; a non-dumpable client is refused
 *    even with it; gateway and client as the same unprivileged user: direct works. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_softnic.h"
#include "softnic/sock.h"
#include "softnic/wire.h"

#define XFER 4096u
#define DC_KEY 0xffeeddccull
#define NOBODY 65534
#define TCP_BYTE 0xab /* what the hostile agent serves over TCP: its own memory, not the victim's */

static void need_root(void) {
  if (geteuid() != 0) skip_case("needs root: the attack is a root gateway reaching a setuid-root process");
}

static cuobj_server_t *server(int direct_privileged) {
  cuobj_rdma_tunables_t t;
  cuobj_server_tunables_default(&t);
  t.io_timeout_ms = t.connect_timeout_ms = 5000;
  t.direct_privileged = (uint32_t)direct_privileged;
  cuobj_server_t *s = cuobj_server_create_with_config(NULL, 0, CUOBJ_PROTO_RDMA_DC_V1, &t);
  CHECK(s != NULL);
  return s;
}

static void token_for(uint16_t port, uint64_t addr, uint32_t size, char out[TOKEN_CAP]) {
  loopback_token(addr, size, port, out);
}

/* ---- the victim program, installed in a temp dir (setuid root or plain) ------------------ */

static char g_target[256];

static void install_target(int setuid_root) {
  char dir[] = "/tmp/snic-guard-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  CHECK(chmod(dir, 0755) == 0); /* nobody must reach it */
  struct statvfs vfs;
  CHECK(statvfs(dir, &vfs) == 0);
  if (setuid_root && (vfs.f_flag & ST_NOSUID)) skip_case("/tmp is mounted nosuid: cannot install a setuid target");
  snprintf(g_target, sizeof g_target, "%s/exec_target", dir);
  int in = open(SNIC_EXEC_TARGET, O_RDONLY | O_CLOEXEC);
  int out = open(g_target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
  CHECK(in >= 0 && out >= 0);
  char buf[65536];
  for (ssize_t n; (n = read(in, buf, sizeof buf)) > 0;) CHECK(write(out, buf, (size_t)n) == n);
  close(in);
  close(out);
  CHECK(chown(g_target, 0, 0) == 0);
  CHECK(chmod(g_target, setuid_root ? 04755 : 0755) == 0);
}

static void remove_target(void) {
  unlink(g_target);
  char *slash = strrchr(g_target, '/');
  *slash = '\0';
  rmdir(g_target);
}

/* ---- the hostile agent (a forked process) ------------------------------------------------ */

typedef struct hostile_pipes {
  int info[2]; /* agent -> test: port, cookie address */
  int go[2];   /* test -> child (then the victim's stdin): 'g' = exec now, then 'c' = report */
  int out[2];  /* victim's stdout -> test */
} hostile_pipes_t;

static void serve_tcp_read(int fd, const snic_hdr_t *h) {
  snic_hdr_t r = snic_hdr_make(SNIC_READ_RESP), d = snic_hdr_make(SNIC_DATA);
  r.length = h->length;
  uint8_t bytes[XFER];
  memset(bytes, TCP_BYTE, sizeof bytes);
  d.length = h->length <= XFER ? h->length : 0;
  if (sock_send_hdr(fd, &r, NULL, 0) == 0 && d.length) sock_send_hdr(fd, &d, bytes, (size_t)d.length);
}

static void serve_tcp_write(int fd, const snic_hdr_t *h) {
  snic_hdr_t r = snic_hdr_make(SNIC_WRITE_READY), d, ack = snic_hdr_make(SNIC_WRITE_ACK);
  uint8_t sink[XFER];
  if (sock_send_hdr(fd, &r, NULL, 0) != 0) return;
  uint64_t got = 0;
  while (got < h->length && sock_recv_hdr(fd, &d) == 0 && d.length <= sizeof sink &&
         sock_recv_all(fd, sink, (size_t)d.length) == 0)
    got += d.length;
  ack.length = got;
  sock_send_hdr(fd, &ack, NULL, 0);
}

/* Answers whatever the gateway asks: cookie proofs (checked), direct windows (any), TCP reads
 * (0xab bytes) and writes (swallowed). */
static void serve(int fd, const uint8_t *cookie) {
  for (;;) {
    snic_hdr_t h, r;
    if (sock_recv_hdr(fd, &h) != 0) return;
    if (h.type == SNIC_PROVE) {
      uint8_t got[SNIC_COOKIE_LEN];
      if (h.length != SNIC_COOKIE_LEN || sock_recv_all(fd, got, sizeof got) != 0) return;
      r = snic_hdr_make(SNIC_PROVE_ACK);
      r.status = memcmp(got, cookie, sizeof got) == 0 ? 0 : -EACCES;
      sock_send_hdr(fd, &r, NULL, 0);
    } else if (h.type == SNIC_DIRECT_BEGIN) {
      r = snic_hdr_make(SNIC_DIRECT_ACK);
      if (sock_send_hdr(fd, &r, NULL, 0) != 0 || sock_recv_hdr(fd, &h) != 0) return;
      r = snic_hdr_make(SNIC_DIRECT_DONE);
      sock_send_hdr(fd, &r, NULL, 0);
    } else if (h.type == SNIC_READ_REQ) {
      serve_tcp_read(fd, &h);
    } else if (h.type == SNIC_WRITE_REQ) {
      serve_tcp_write(fd, &h);
    } else {
      return;
    }
  }
}

/* uid >= 0: run as that uid (dumpable, as a process started as nobody is). */
static void hostile_agent(const hostile_pipes_t *p, int uid) {
  if (uid >= 0 && (setresgid(uid, uid, uid) != 0 || setresuid(uid, uid, uid) != 0 || prctl(PR_SET_DUMPABLE, 1) != 0))
    _exit(20);
  uint8_t *cookie = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (cookie == MAP_FAILED || getrandom(cookie, SNIC_COOKIE_LEN, 0) != SNIC_COOKIE_LEN) _exit(21);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  uint16_t port;
  int lfd = sock_listen(&a, &port);
  uint64_t addr = (uint64_t)(uintptr_t)cookie;
  if (lfd < 0 || write(p->info[1], &port, sizeof port) != sizeof port || write(p->info[1], &addr, sizeof addr) != sizeof addr)
    _exit(22);
  int fd = accept(lfd, NULL, NULL); /* no CLOEXEC: the exec'd victim keeps the socket too */
  if (fd < 0) _exit(23);
  sock_set_timeouts(fd, 10000);
  pid_t child = fork();
  if (child == 0) { /* shares the socket; named in the handshake; execs when told */
    char g;
    if (read(p->go[0], &g, 1) != 1) _exit(24);
    if (dup2(p->go[0], 0) < 0 || dup2(p->out[1], 1) < 0) _exit(25);
    execl(g_target, g_target, (char *)NULL);
    _exit(26);
  }
  if (child < 0 || fake_agent_handshake(fd, DC_KEY, child, addr) != 0) _exit(27);
  serve(fd, cookie);
  waitpid(child, NULL, 0);
  _exit(0);
}

/* ---- the attack, one scenario per case -------------------------------------------------- */

typedef struct scenario {
  int setuid_root; /* the child execs a setuid-root program (agent runs as nobody), else a plain
                      program as the same uid (root) */
  int opt_in;      /* server option direct_privileged */
  int get;         /* the transfer after the exec: 1 = GET (write into the client), 0 = PUT */
} scenario_t;

static void read_line(int fd, char *buf, size_t cap) {
  size_t n = 0;
  while (n + 1 < cap && read(fd, buf + n, 1) == 1 && buf[n] != '\n') n++;
  buf[n] = '\0';
}

static void attack(const scenario_t *sc) {
  need_root();
  install_target(sc->setuid_root);
  hostile_pipes_t p;
  CHECK(pipe(p.info) == 0 && pipe(p.go) == 0 && pipe(p.out) == 0);
  fflush(NULL);
  pid_t agent = fork();
  CHECK(agent >= 0);
  if (agent == 0) hostile_agent(&p, sc->setuid_root ? NOBODY : -1);
  uint16_t port;
  uint64_t cookie_addr;
  CHECK(read(p.info[0], &port, sizeof port) == sizeof port && read(p.info[0], &cookie_addr, sizeof cookie_addr) == sizeof cookie_addr);

  cuobj_server_t *s = server(sc->opt_in);
  uint8_t *mem = cuobj_server_alloc_host_buffer(s, XFER);
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, mem, XFER);
  char tok[TOKEN_CAP];
  /* 1. connect + prove while the child is still the agent's fork; one transfer */
  token_for(port, cookie_addr, SNIC_COOKIE_LEN, tok);
  CHECK_EQ_INT(cuobj_server_handle_put(s, "k", b, cookie_addr, SNIC_COOKIE_LEN, tok, 0), SNIC_COOKIE_LEN);
  int proven = !sc->setuid_root || sc->opt_in; /* root vs nobody without the option: never proven */
  CHECK_EQ_INT(stats_of(s).proofs_ok, proven);
  CHECK_EQ_INT(stats_of(s).direct_transfers, proven);

  /* 2. the child execs the victim (same pid, still holding the socket) */
  CHECK(write(p.go[1], "g", 1) == 1);
  char line[64];
  read_line(p.out[0], line, sizeof line);
  unsigned long long secret;
  unsigned euid;
  CHECK(sscanf(line, "%llx %u", &secret, &euid) == 2);
  CHECK_EQ_INT(euid, sc->setuid_root ? 0 : geteuid()); /* the setuid install really took */

  /* 3. a transfer aimed at the victim's memory */
  token_for(port, secret, XFER, tok);
  memset(mem, sc->get ? 'X' : 0, XFER);
  ssize_t rc = sc->get ? cuobj_server_handle_get(s, "k", b, secret, XFER, tok, 0)
                       : cuobj_server_handle_put(s, "k", b, secret, XFER, tok, 0);
  CHECK_EQ_INT(rc, XFER);
  for (size_t i = 0; i < XFER; i++) {
    if (mem[i] == 'R') {
      fprintf(stderr, "the gateway read the victim's memory (byte %zu)\n", i);
      CHECK(0);
    }
    CHECK(mem[i] == (sc->get ? 'X' : TCP_BYTE)); /* a PUT got the agent's own TCP bytes */
  }
  CHECK(write(p.go[1], "c", 1) == 1);
  read_line(p.out[0], line, sizeof line);
  if (strcmp(line, "intact") != 0) fprintf(stderr, "victim reports: %s\n", line);
  CHECK(strcmp(line, "intact") == 0);

  cuobj_server_stats_t st = stats_of(s);
  CHECK_EQ_INT(st.direct_transfers, proven); /* only the transfer before the exec */
  CHECK_EQ_INT(st.tcp_transfers, proven ? 1 : 2);
  CHECK_EQ_INT(cuobj_server_direct_revoked(s), proven);
  CHECK_EQ_INT(st.failed_transfers, 0);

  CHECK_EQ_INT(cuobj_server_deregister_buffer(s, b), 0);
  cuobj_server_free_host_buffer(s, mem);
  cuobj_server_destroy(s); /* closes the connection: the agent's loop ends */
  int status;
  CHECK(waitpid(agent, &status, 0) == agent);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  for (int i = 0; i < 2; i++) close(p.info[i]), close(p.go[i]), close(p.out[i]);
  remove_target();
}

static void setuid_exec_after_proof_put(void) { attack(&(scenario_t){.setuid_root = 1, .opt_in = 1, .get = 0}); }
static void setuid_exec_after_proof_get(void) { attack(&(scenario_t){.setuid_root = 1, .opt_in = 1, .get = 1}); }
static void setuid_exec_without_opt_in(void) { attack(&(scenario_t){.setuid_root = 1, .opt_in = 0, .get = 0}); }
static void same_uid_exec_after_proof_put(void) { attack(&(scenario_t){.setuid_root = 0, .opt_in = 0, .get = 0}); }
static void same_uid_exec_after_proof_get(void) { attack(&(scenario_t){.setuid_root = 0, .opt_in = 0, .get = 1}); }

/* ---- privilege rule with the real client library ---------------------------------------- */

/* A root gateway and a real client running as nobody: GET then PUT, bytes verified; returns
 * the stats. dumpable 0: the client process is not dumpable (a uid drop without prctl). */
static cuobj_server_stats_t root_vs_nobody(int opt_in, int dumpable) {
  need_root();
  peer_t peer;
  peer_uid = NOBODY;
  peer_dumpable = dumpable;
  peer_start(&peer, XFER, 7, 1, DC_KEY, NULL);
  peer_uid = -1;
  peer_dumpable = 1;
  cuobj_server_t *s = server(opt_in);
  uint8_t *mem = cuobj_server_alloc_host_buffer(s, XFER);
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, mem, XFER);
  char tok[TOKEN_CAP];
  peer_token(&peer, 0, XFER, CUOBJ_OP_GET, tok);
  test_fill(mem, XFER, 9);
  CHECK_EQ_INT(cuobj_server_handle_get(s, "k", b, peer.addr, XFER, tok, 0), XFER);
  CHECK_EQ_INT(peer_hash(&peer, 0, XFER), test_hash(mem, XFER));
  peer_fill(&peer, 11);
  memset(mem, 0, XFER);
  CHECK_EQ_INT(cuobj_server_handle_put(s, "k", b, peer.addr, XFER, tok, 0), XFER);
  CHECK_EQ_INT(peer_hash(&peer, 0, XFER), test_hash(mem, XFER));
  cuobj_server_stats_t st = stats_of(s);
  CHECK_EQ_INT(st.connects, 1);
  CHECK_EQ_INT(cuobj_server_direct_revoked(s), 0);
  CHECK_EQ_INT(cuobj_server_deregister_buffer(s, b), 0);
  cuobj_server_free_host_buffer(s, mem);
  cuobj_server_destroy(s);
  peer_stop(&peer);
  return st;
}

/* A root_vs_nobody run and the counters it must end with (proofs_failed < 0: not checked). */
typedef struct nobody_case {
  int opt_in, dumpable;
  long long proofs_ok, proofs_failed, direct_transfers, tcp_transfers;
} nobody_case_t;

static void check_root_vs_nobody(const nobody_case_t *c) {
  cuobj_server_stats_t st = root_vs_nobody(c->opt_in, c->dumpable);
  CHECK_EQ_INT(st.proofs_ok, c->proofs_ok);
  if (c->proofs_failed >= 0) CHECK_EQ_INT(st.proofs_failed, c->proofs_failed);
  CHECK_EQ_INT(st.direct_transfers, c->direct_transfers);
  CHECK_EQ_INT(st.tcp_transfers, c->tcp_transfers);
}

static void root_gateway_nobody_client_uses_tcp(void) { check_root_vs_nobody(&(nobody_case_t){0, 1, 0, 1, 0, 2}); }
static void root_gateway_nobody_client_opt_in_direct(void) { check_root_vs_nobody(&(nobody_case_t){1, 1, 1, -1, 2, 0}); }
static void non_dumpable_client_refused_even_with_opt_in(void) { check_root_vs_nobody(&(nobody_case_t){1, 0, 0, 1, 0, 2}); }

/* The recommended deployment: gateway and client both run as the same unprivileged user. The
 * direct path still works (the kernel's ptrace check guards each copy; no /proc/<pid>/mem). Run
 * as nobody in a child; exit codes name the failed step. */
static void unprivileged_same_uid_direct(void) {
  need_root(); /* to become nobody */
  fflush(NULL);
  pid_t gw = fork();
  CHECK(gw >= 0);
  if (gw == 0) {
    if (setresgid(NOBODY, NOBODY, NOBODY) != 0 || setresuid(NOBODY, NOBODY, NOBODY) != 0 ||
        prctl(PR_SET_DUMPABLE, 1) != 0)
      _exit(20);
    peer_t peer;
    peer_start(&peer, XFER, 3, 1, DC_KEY, NULL); /* the client: nobody too, dumpable */
    cuobj_server_t *s = server(0);
    uint8_t *mem = cuobj_server_alloc_host_buffer(s, XFER);
    cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, mem, XFER);
    char tok[TOKEN_CAP];
    peer_token(&peer, 0, XFER, CUOBJ_OP_GET, tok);
    test_fill(mem, XFER, 4);
    if (cuobj_server_handle_get(s, "k", b, peer.addr, XFER, tok, 0) != XFER) _exit(21);
    if (peer_hash(&peer, 0, XFER) != test_hash(mem, XFER)) _exit(22);
    peer_fill(&peer, 5);
    if (cuobj_server_handle_put(s, "k", b, peer.addr, XFER, tok, 0) != XFER) _exit(23);
    if (peer_hash(&peer, 0, XFER) != test_hash(mem, XFER)) _exit(24);
    cuobj_server_stats_t st = stats_of(s);
    if (st.proofs_ok != 1 || st.direct_transfers != 2 || st.tcp_transfers != 0) _exit(25);
    cuobj_server_deregister_buffer(s, b);
    cuobj_server_free_host_buffer(s, mem);
    cuobj_server_destroy(s);
    peer_stop(&peer);
    _exit(0);
  }
  int status;
  CHECK(waitpid(gw, &status, 0) == gw);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fprintf(stderr, "unprivileged gateway: exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST_MAIN(CASE(setuid_exec_after_proof_put), CASE(setuid_exec_after_proof_get), CASE(setuid_exec_without_opt_in),
          CASE(same_uid_exec_after_proof_put), CASE(same_uid_exec_after_proof_get),
          CASE(root_gateway_nobody_client_uses_tcp), CASE(root_gateway_nobody_client_opt_in_direct),
          CASE(non_dumpable_client_refused_even_with_opt_in), CASE(unprivileged_same_uid_direct))
