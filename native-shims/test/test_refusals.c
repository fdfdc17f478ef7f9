/* test_refusals.c — everything the transport must refuse, each on the path(s) it guards:
 * agent-side bounds and rkey (TCP and direct), DC key, server-side token window and argument
 * checks, deregistered regions. Every case also proves nothing moved (memory unchanged). */
#include <errno.h>
#include <string.h>

#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_softnic.h"

#define REG (64u << 10)

static void set_size(cuobj_token_t *t, void *arg) { t->size = (uint32_t)(uintptr_t)arg; }
static void shift_addr(cuobj_token_t *t, void *arg) { t->addr -= (uint64_t)(uintptr_t)arg; }
static void bump_rkey(cuobj_token_t *t, void *arg) { (void)arg; t->rkey += 1; }

/* Guard pages on both sides of the region hold 0xee; the region holds 0x11; server buffer 0x77. */
static void paint(rig_t *r) {
  memset(r->cmem, 0xee, r->region_size + 8192);
  memset(rig_region(r), 0x11, r->region_size);
  memset(r->smem, 0x77, r->smem_size);
}

static int all_bytes(const uint8_t *p, size_t n, uint8_t v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v) return 0;
  return 1;
}

static void check_untouched(rig_t *r) {
  CHECK(all_bytes(r->cmem, 4096, 0xee));
  CHECK(all_bytes(rig_region(r), r->region_size, 0x11));
  CHECK(all_bytes(rig_region(r) + r->region_size, 4096, 0xee));
  CHECK(all_bytes(r->smem, r->smem_size, 0x77));
}

/* A painted rig (REG region, 1 MiB server buffer) and a GET token for the whole region in tok;
 * returns the region's address. */
static uint64_t painted_rig(rig_t *r, int direct, char tok[TOKEN_CAP]) {
  rig_open(r, direct, REG, 1 << 20);
  paint(r);
  mint(r->cli, r->mr, 0, REG, CUOBJ_OP_GET, tok);
  return (uint64_t)(uintptr_t)rig_region(r);
}

/* The token claims more than the registration: only the agent's bounds check stands between
 * the gateway and the client's neighbouring memory. */
static void out_of_region(int direct) {
  rig_t r;
  char tok[TOKEN_CAP];
  uint64_t base = painted_rig(&r, direct, tok);
  forge(tok, set_size, (void *)(uintptr_t)(REG + 4096));
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + REG - 100, 200, tok, 0), -ERANGE);
  CHECK_EQ_INT(cuobj_server_handle_put(r.srv, "k", r.sbuf, base + REG - 100, 200, tok, 0), -ERANGE);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + REG, 1, tok, 0), -ERANGE);
  mint(r.cli, r.mr, 0, REG, CUOBJ_OP_GET, tok);
  forge(tok, shift_addr, (void *)(uintptr_t)4096); /* window starts in the guard page before */
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base - 8, 16, tok, 0), -ERANGE);
  CHECK_EQ_INT(cuobj_server_handle_put(r.srv, "k", r.sbuf, base - 8, 16, tok, 0), -ERANGE);
  check_untouched(&r);
  /* the refusals left the connection and channel usable */
  mint(r.cli, r.mr, 0, REG, CUOBJ_OP_GET, tok);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base, REG, tok, 0), REG);
  CHECK(all_bytes(rig_region(&r), REG, 0x77));
  CHECK_EQ_INT(stats_of(r.srv).connects, 1);
  rig_close(&r);
}
static void out_of_region_direct(void) { out_of_region(1); }
static void out_of_region_tcp(void) { out_of_region(0); }

static void wrong_rkey(int direct) {
  rig_t r;
  char tok[TOKEN_CAP];
  uint64_t base = painted_rig(&r, direct, tok);
  forge(tok, bump_rkey, NULL);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base, REG, tok, 0), -EACCES);
  CHECK_EQ_INT(cuobj_server_handle_put(r.srv, "k", r.sbuf, base, REG, tok, 0), -EACCES);
  check_untouched(&r);
  rig_close(&r);
}
static void wrong_rkey_direct(void) { wrong_rkey(1); }
static void wrong_rkey_tcp(void) { wrong_rkey(0); }

static void wrong_dc_key(void) {
  rig_t r;
  char tok[TOKEN_CAP];
  uint64_t base = painted_rig(&r, 1, tok);
  cuobj_server_t *other = keyed_server(0xffeeddcdull); /* one off */
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(other, r.smem, r.smem_size);
  CHECK_EQ_INT(cuobj_server_handle_get(other, "k", b, base, REG, tok, 0), -EACCES);
  CHECK_EQ_INT(cuobj_server_handle_put(other, "k", b, base, REG, tok, 0), -EACCES);
  CHECK_EQ_INT(stats_of(other).proofs_ok, 0); /* refused before any cookie was offered */
  check_untouched(&r);
  cuobj_server_deregister_buffer(other, b);
  cuobj_server_destroy(other);
  rig_close(&r);
}

static void gid_v6(cuobj_token_t *t, void *arg) {
  (void)arg;
  t->gid[10] = 0;
}

/* Checks the gateway makes before any byte moves (the agent would have allowed these). */
static void server_side_checks(void) {
  rig_t r;
  rig_open(&r, 0, REG, 1 << 20);
  paint(&r);
  uint64_t base = (uint64_t)(uintptr_t)rig_region(&r);
  char tok[TOKEN_CAP], t2[TOKEN_CAP];
  mint(r.cli, r.mr, 4096, 4096, CUOBJ_OP_GET, tok);
  /* outside the token window, though inside the registration */
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base, 4096, tok, 0), -EINVAL);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 4096, 4097, tok, 0), -EINVAL);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 8192, 1, tok, 0), -EINVAL);
  /* local window outside the registered server buffer */
  CHECK_EQ_INT(cuobj_server_handle_get_ex(r.srv, "k", r.sbuf, (1 << 20) - 100, base + 4096, 4096, tok, 0), -EINVAL);
  /* size 0 and > 1 GiB */
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 4096, 0, tok, 0), -EINVAL);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 4096, (1ull << 30) + 1, tok, 0), -EINVAL);
  /* bad channel, unregistered buffer, malformed / RC / non-IPv4 tokens */
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 4096, 4096, tok, 128), -EINVAL);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", (cuobj_rdma_buffer_t *)&r, base + 4096, 4096, tok, 0), -EINVAL);
  strcpy(t2, tok);
  t2[3] = 'X';
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 4096, 4096, t2, 0), -EINVAL);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 4096, 4096, "rc:0001", 0), -EPROTONOSUPPORT);
  strcpy(t2, tok);
  forge(t2, gid_v6, NULL);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 4096, 4096, t2, 0), -EAFNOSUPPORT);
  char msg[256];
  CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -EAFNOSUPPORT);
  CHECK(strstr(msg, "IPv4") != NULL);
  check_untouched(&r);
  CHECK_EQ_INT(stats_of(r.srv).connects, 0); /* nothing reached the network */
  /* the suffixed override narrows the window the gateway accepts */
  char t3[256];
  snprintf(t3, sizeof t3, "%.81s:%016llx:%016llx", tok, 0ull, 16ull);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 4096, 17, t3, 0), -EINVAL);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base + 4096, 16, t3, 0), 16);
  rig_close(&r);
}

static void deregistered_region(int direct) {
  rig_t r;
  rig_open(&r, direct, REG, 1 << 20);
  uint64_t base = (uint64_t)(uintptr_t)rig_region(&r);
  char tok[TOKEN_CAP];
  mint(r.cli, r.mr, 0, REG, CUOBJ_OP_GET, tok);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base, REG, tok, 0), REG);
  CHECK_EQ_INT(rdma_host_client_deregister(r.cli, r.mr), 0);
  memset(rig_region(&r), 0x11, REG);
  memset(r.smem, 0x55, r.smem_size);
  CHECK_EQ_INT(cuobj_server_handle_get(r.srv, "k", r.sbuf, base, REG, tok, 0), -EACCES);
  CHECK(all_bytes(rig_region(&r), REG, 0x11));
  r.mr = rdma_host_client_register(r.cli, rig_region(&r), REG); /* for rig_close */
  CHECK(r.mr != NULL);
  rig_close(&r);
}
static void deregistered_direct(void) { deregistered_region(1); }
static void deregistered_tcp(void) { deregistered_region(0); }

TEST_MAIN(CASE(out_of_region_direct), CASE(out_of_region_tcp), CASE(wrong_rkey_direct), CASE(wrong_rkey_tcp),
          CASE(wrong_dc_key), CASE(server_side_checks), {"deregistered_region_direct", deregistered_direct},
          {"deregistered_region_tcp", deregistered_tcp})
