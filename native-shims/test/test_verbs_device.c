/* test_verbs_device.c — the verbs provider through the public host-client ABI. On the machines of
 * this project (no RDMA device) create must fail with -ENODEV and a "verbs provider:" sentence;
 * on a host with a ConnectX-5+ port the same case goes on to a real DC target: register memory,
 * mint a token and check it carries the MR's rkey and address, the DCT number and a GID (see
 * docs/hardware-checklist.md). Skipped where the provider is not built (no rdma-core headers). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuobj_token.h"
#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "rdma_host_client_wrapper.h"

static rdma_host_client_t *create_verbs(char *msg, size_t cap, int *err) {
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  cfg.provider = VGW_PROVIDER_VERBS;
  rdma_host_client_t *c = rdma_host_client_create(&cfg);
  *err = c ? 0 : vgw_shim_last_error(msg, cap);
  return c;
}

static void exercise_real_dct(rdma_host_client_t *c) {
  CHECK_EQ_INT(rdma_host_client_agent_port(c), -ENOTSUP);
  CHECK_EQ_INT(rdma_host_client_set_direct_access(c, 0), -ENOTSUP);
  size_t size = 1u << 20;
  char *mem = rdma_host_client_alloc(c, size);
  CHECK(mem != NULL);
  rdma_host_mr_t *mr = rdma_host_client_register(c, mem, size);
  CHECK(mr != NULL);
  CHECK(rdma_host_mr_addr(mr) == mem);
  CHECK_EQ_INT(rdma_host_mr_size(mr), size);
  char tok[128];
  CHECK_EQ_INT(rdma_host_client_token(c, mr, 4096, 8192, CUOBJ_OP_PUT, tok, sizeof tok), 81);
  printf("token: %s\n", tok);
  cuobj_token_t t;
  CHECK_EQ_INT(cuobj_token_parse(tok, &t), 0);
  CHECK(t.addr == (uint64_t)(uintptr_t)mem + 4096);
  CHECK_EQ_INT(t.size, 8192);
  CHECK_EQ_INT(t.rkey, rdma_host_mr_rkey(mr));
  CHECK(t.dctn != 0);
  CHECK_EQ_INT(t.gid_present, 1);
  CHECK_EQ_INT(rdma_host_client_token(c, mr, size - 1, 2, CUOBJ_OP_GET, tok, sizeof tok), -EINVAL);
  CHECK_EQ_INT(rdma_host_client_free(c, mem), -EBUSY);
  CHECK_EQ_INT(rdma_host_client_deregister(c, mr), 0);
  CHECK_EQ_INT(rdma_host_client_deregister(c, mr), -EINVAL);
  CHECK_EQ_INT(rdma_host_client_free(c, mem), 0);
  rdma_host_client_destroy(c);
}

static void no_device_here_or_real_dct(void) {
  if (vgw_shim_provider_built(VGW_PROVIDER_VERBS) != 1) skip_case("verbs provider not built (no rdma-core headers)");
  char msg[512];
  int err;
  rdma_host_client_t *c = create_verbs(msg, sizeof msg, &err);
  if (c != NULL) {
    exercise_real_dct(c);
    return;
  }
  printf("create: %d %s\n", err, msg);
  CHECK_EQ_INT(err, -ENODEV);
  CHECK(strncmp(msg, "verbs provider: ", 16) == 0);
  CHECK(strstr(msg, "no RDMA device") || strstr(msg, "cannot be loaded") || strstr(msg, "not active") ||
        strstr(msg, "not an mlx5 device"));
}

static void settings_checked_before_any_device(void) {
  if (vgw_shim_provider_built(VGW_PROVIDER_VERBS) != 1) skip_case("verbs provider not built (no rdma-core headers)");
  setenv("VGWRDMA_RDMA_PORT", "0", 1);
  char msg[512];
  int err;
  rdma_host_client_t *c = create_verbs(msg, sizeof msg, &err);
  unsetenv("VGWRDMA_RDMA_PORT");
  CHECK(c == NULL);
  CHECK_EQ_INT(err, -EINVAL);
  CHECK(strstr(msg, "VGWRDMA_RDMA_PORT='0'") != NULL);
}

static void server_refuses_verbs_provider(void) {
  cuobj_rdma_tunables_t t;
  cuobj_server_tunables_default(&t);
  t.provider = VGW_PROVIDER_VERBS; /* whether built or not: never a silent softnic server */
  CHECK(cuobj_server_create_with_config(NULL, 0, CUOBJ_PROTO_RDMA_DC_V1, &t) == NULL);
  int err = vgw_shim_last_error(NULL, 0);
  CHECK(err == -EINVAL || err == -ENODEV);
}

TEST_MAIN(CASE(no_device_here_or_real_dct), CASE(settings_checked_before_any_device),
          CASE(server_refuses_verbs_provider))
