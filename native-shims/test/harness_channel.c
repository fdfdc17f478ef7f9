/* harness_channel.c — the shared channel/agent setup of the softnic tests (see the header). */
#include "harness_channel.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>

#include "harness.h"
#include "softnic/sock.h"

void served_open(served_t *sv, int direct, uint32_t io_timeout_ms, size_t size) {
  sv->s = test_server(direct, io_timeout_ms);
  sv->size = size;
  sv->mem = cuobj_server_alloc_host_buffer(sv->s, size);
  CHECK(sv->mem != NULL);
  sv->b = cuobj_server_register_buffer(sv->s, sv->mem, size);
  CHECK(sv->b != NULL);
}

int served_close(served_t *sv) {
  int rc = sv->b != NULL ? cuobj_server_deregister_buffer(sv->s, sv->b) : 0;
  cuobj_server_free_host_buffer(sv->s, sv->mem);
  cuobj_server_destroy(sv->s);
  memset(sv, 0, sizeof *sv);
  return rc;
}

int loopback_listen(uint16_t *port) {
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  int lfd = sock_listen(&a, port);
  CHECK(lfd >= 0);
  return lfd;
}

void loopback_token(uint64_t addr, uint32_t size, uint16_t port, char out[TOKEN_CAP]) {
  cuobj_token_t t = {.addr = addr, .size = size, .rkey = 1, .gid_present = 1, .dctn = port};
  t.gid[10] = t.gid[11] = 0xff; /* ::ffff:127.0.0.1 */
  t.gid[12] = 127;
  t.gid[15] = 1;
  CHECK(cuobj_token_format(&t, out, TOKEN_CAP) == 81);
}

int agent_connect(uint16_t port) {
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  int fd = sock_connect(&to, NULL, 2000);
  CHECK(fd >= 0);
  CHECK_EQ_INT(sock_set_timeouts(fd, 5000), 0);
  return fd;
}

int64_t await_completion(cuobj_server_t *s, uint64_t tag, int timeout_ms) {
  struct pollfd pf = {.fd = cuobj_server_completion_fd(s), .events = POLLIN};
  CHECK(poll(&pf, 1, timeout_ms) == 1);
  cuobj_async_event_t ev;
  CHECK_EQ_INT(cuobj_server_poll_completions(s, &ev, 1), 1);
  CHECK(ev.user_tag == tag);
  return ev.status;
}

void rig_put_checked(rig_t *r, size_t len, uint64_t seed, char tok[TOKEN_CAP]) {
  uint64_t base = (uint64_t)(uintptr_t)rig_region(r);
  mint(r->cli, r->mr, 0, len, CUOBJ_OP_PUT, tok);
  test_fill(rig_region(r), len, seed);
  CHECK_EQ_INT(cuobj_server_handle_put(r->srv, "k", r->sbuf, base, len, tok, 0), (int64_t)len);
  CHECK(memcmp(r->smem, rig_region(r), len) == 0);
}

cuobj_server_t *keyed_server(uint64_t dc_key) {
  cuobj_rdma_tunables_t t;
  cuobj_server_tunables_default(&t);
  t.dc_key = dc_key;
  cuobj_server_t *s = cuobj_server_create_with_config(NULL, 0, CUOBJ_PROTO_RDMA_DC_V1, &t);
  CHECK(s != NULL);
  return s;
}

agent_target_t agent_target(const rig_t *r) {
  return (agent_target_t){.port = (uint16_t)rdma_host_client_agent_port(r->cli),
                          .base = (uint64_t)(uintptr_t)rig_region(r),
                          .rkey = rdma_host_mr_rkey(r->mr)};
}
