/* test_netns.c — the TCP path between two network namespaces joined by a veth pair (10.x
 * addresses that exist only inside those namespaces), so the bytes really cross an interface
 * other than loopback. Needs root and `ip`; the test creates and deletes everything it uses and
 * is skipped (exit 77, with the reason) where it cannot. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "harness_softnic.h"

#define SZ (16u << 20)

static char ns_a[32], ns_b[32];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...) {
  char cmd[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  return system(cmd);
}

static void cleanup(void) {
  sh("ip netns del %s >/dev/null 2>&1", ns_a); /* deleting a namespace deletes its veth end */
  sh("ip netns del %s >/dev/null 2>&1", ns_b);
}

static void setup_or_skip(void) {
  if (geteuid() != 0) skip_case("needs root to create network namespaces");
  if (sh("command -v ip >/dev/null 2>&1") != 0) skip_case("the `ip` command (iproute2) is not installed");
  unsigned tag = (unsigned)getpid() % 100000;
  snprintf(ns_a, sizeof ns_a, "vgwt_a_%u", tag);
  snprintf(ns_b, sizeof ns_b, "vgwt_b_%u", tag);
  atexit(cleanup);
  unsigned o = tag % 250 + 1; /* third octet, so parallel runs do not share a subnet */
  if (sh("ip netns add %s", ns_a) != 0 || sh("ip netns add %s", ns_b) != 0 ||
      sh("ip link add vgwa%u netns %s type veth peer name vgwb%u netns %s", tag, ns_a, tag, ns_b) != 0 ||
      sh("ip -n %s addr add 10.213.%u.1/24 dev vgwa%u", ns_a, o, tag) != 0 ||
      sh("ip -n %s addr add 10.213.%u.2/24 dev vgwb%u", ns_b, o, tag) != 0 ||
      sh("ip -n %s link set vgwa%u up && ip -n %s link set lo up", ns_a, tag, ns_a) != 0 ||
      sh("ip -n %s link set vgwb%u up && ip -n %s link set lo up", ns_b, tag, ns_b) != 0) {
    cleanup();
    skip_case("cannot create network namespaces / veth here (container without CAP_NET_ADMIN?)");
  }
}

/* Runs in a child that joined namespace A: GET and PUT over TCP to the agent in namespace B. */
static int server_side(peer_t *p) {
  if (join_netns(ns_a) != 0) return 10;
  cuobj_server_t *s = test_server(0, 5000);
  uint8_t *mem = cuobj_server_alloc_host_buffer(s, SZ);
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, mem, SZ);
  char tok[TOKEN_CAP];
  peer_token(p, 0, SZ, CUOBJ_OP_PUT, tok);
  ssize_t n = cuobj_server_handle_put(s, "k", b, p->addr, SZ, tok, 0);
  if (n != SZ) {
    char msg[256];
    vgw_shim_last_error(msg, sizeof msg);
    fprintf(stderr, "put: %zd (%s)\n", n, msg);
    return 11;
  }
  if (peer_hash(p, 0, SZ) != test_hash(mem, SZ)) return 12;
  test_fill(mem, SZ, 4242);
  peer_token(p, 0, SZ, CUOBJ_OP_GET, tok);
  if (cuobj_server_handle_get(s, "k", b, p->addr, SZ, tok, 0) != SZ) return 13;
  if (peer_hash(p, 0, SZ) != test_hash(mem, SZ)) return 14;
  cuobj_server_stats_t st = stats_of(s);
  if (st.tcp_transfers != 2 || st.direct_transfers != 0) return 15;
  cuobj_server_deregister_buffer(s, b);
  cuobj_server_free_host_buffer(s, mem);
  cuobj_server_destroy(s);
  return 0;
}

static void tcp_across_namespaces(void) {
  setup_or_skip();
  unsigned o = (unsigned)getpid() % 100000 % 250 + 1;
  char agent_ip[32];
  snprintf(agent_ip, sizeof agent_ip, "10.213.%u.2", o);
  peer_t p;
  peer_netns = ns_b;
  peer_start(&p, SZ, 17, 0, 0xffeeddcc, agent_ip);
  peer_netns = NULL;
  char tok[TOKEN_CAP];
  peer_token(&p, 0, SZ, CUOBJ_OP_GET, tok);
  CHECK(strstr(tok, "ffff0ad5") != NULL); /* the token advertises the 10.213.x.2 agent */
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) _exit(server_side(&p));
  int st;
  CHECK(waitpid(pid, &st, 0) == pid);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "server side failed: status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    CHECK(0);
  }
  peer_stop(&p);
  cleanup();
}

TEST_MAIN({"tcp_across_network_namespaces", tcp_across_namespaces})
