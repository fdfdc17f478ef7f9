/* test_cuobj_client_glue.c — the client ABIs' provider hooks (host_client.c, cuobj_client.c and the
 * handle registry in provider.c) with a RECORDING cuobj plugin (test/fixtures/cuobj-plugins/
 * recording_vendor.c; no RDMA, no bytes): a provider client's alloc / register / token / mr_* /
 * deregister / free / destroy reach the provider, softnic-only calls answer -ENOTSUP, handles of
 * another client are refused by the registry, and cuobj_client (GPU-capable ABI) sits on the same
 * provider client for host memory. Runs in a forked child (the plugin loader caches per process). */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuobjclient_wrapper.h"
#include "harness.h"
#include "rdma_host_client_wrapper.h"

#include "fixtures/cuobj-plugins/recording_vendor.h"
#include "harness_plugin.h"

static const vgw_fx_client_record_t *recording(void) { return recording_plugin_record("vgw_fx_client_recording"); }

/* The default client configuration with the cuObject provider selected. */
static rdma_host_client_config_t cuobj_config(void) {
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  cfg.provider = VGW_PROVIDER_CUOBJ;
  return cfg;
}

static void run_host_client(void) {
  rdma_host_client_config_t cfg = cuobj_config();
  rdma_host_client_t *c = rdma_host_client_create(&cfg);
  CHECK(c != NULL);
  const vgw_fx_client_record_t *r = recording();
  CHECK_EQ_INT(r->creates, 1);
  CHECK_EQ_INT(r->provider, VGW_PROVIDER_CUOBJ);
  CHECK_EQ_INT(rdma_host_client_agent_port(c), -ENOTSUP);
  CHECK_EQ_INT(rdma_host_client_set_direct_access(c, 1), -ENOTSUP);
  char *mem = rdma_host_client_alloc(c, 4096);
  CHECK(mem != NULL);
  CHECK_EQ_INT(r->allocs, 1);
  CHECK_EQ_INT(r->last_kind, CUOBJ_MEMORY_SYSTEM);
  rdma_host_mr_t *mr = rdma_host_client_register(c, mem, 4096);
  CHECK(mr != NULL);
  CHECK_EQ_INT(r->regs, 1);
  CHECK(rdma_host_mr_addr(mr) == mem);
  CHECK_EQ_INT(rdma_host_mr_size(mr), 4096);
  CHECK_EQ_INT(rdma_host_mr_rkey(mr), 0x5000);
  char tok[128];
  CHECK_EQ_INT(rdma_host_client_token(c, mr, 100, 200, CUOBJ_OP_PUT, tok, sizeof tok), 81);
  CHECK_EQ_INT(r->last_offset, 100);
  CHECK_EQ_INT(r->last_size, 200);
  CHECK_EQ_INT(r->last_op, CUOBJ_OP_PUT);
  cuobj_token_t t;
  CHECK_EQ_INT(cuobj_token_parse(tok, &t), 0);
  CHECK(t.addr == (uint64_t)(uintptr_t)(mem + 100));

  /* a second (softnic) client: the registry keeps the handles apart */
  rdma_host_client_t *soft = rdma_host_client_create(NULL);
  CHECK(soft != NULL);
  CHECK_EQ_INT(rdma_host_client_deregister(c, (rdma_host_mr_t *)soft), -EINVAL); /* not c's registration */
  CHECK_EQ_INT(r->deregs, 0);
  CHECK(rdma_host_client_agent_port(soft) > 0); /* softnic untouched by the hooks */
  rdma_host_client_destroy(soft);

  CHECK_EQ_INT(rdma_host_client_deregister(c, mr), 0);
  CHECK_EQ_INT(r->deregs, 1);
  CHECK_EQ_INT(rdma_host_client_deregister(c, mr), -EINVAL); /* gone from the registry */
  CHECK_EQ_INT(r->deregs, 1);
  CHECK_EQ_INT(rdma_host_client_free(c, mem), 0);
  CHECK_EQ_INT(r->frees, 1);
  CHECK(rdma_host_client_register(c, mem, 64) != NULL); /* left registered: destroy frees it */
  rdma_host_client_destroy(c);
  CHECK_EQ_INT(r->destroys, 1);
}

static void run_cuobj_client(void) {
  rdma_host_client_config_t cfg = cuobj_config();
  cuobj_client_t *c = cuobj_client_create(&cfg);
  CHECK(c != NULL);
  const vgw_fx_client_record_t *r = recording();
  void *mem = cuobj_client_alloc(c, 4096, CUOBJ_MEMORY_SYSTEM);
  CHECK(mem != NULL);
  cuobj_client_mr_t *mr = cuobj_client_register(c, mem, 4096, CUOBJ_MEMORY_SYSTEM);
  CHECK(mr != NULL);
  CHECK_EQ_INT(r->last_kind, CUOBJ_MEMORY_SYSTEM);
  CHECK_EQ_INT(cuobj_client_mr_rkey(mr), 0x5000u + (uint32_t)((r->regs - 1) % 4));
  char tok[128];
  CHECK_EQ_INT(cuobj_client_token(c, mr, 8, 16, CUOBJ_OP_GET, tok, sizeof tok), 81);
  CHECK_EQ_INT(r->last_op, CUOBJ_OP_GET);
  CHECK_EQ_INT(cuobj_client_stage_to_host(c, mr, 0, 16), 0); /* host memory: nothing to stage */
  CHECK_EQ_INT(cuobj_client_deregister(c, mr), 0);
  CHECK_EQ_INT(cuobj_client_free(c, mem), 0);
  cuobj_client_destroy(c);
}

static void host_client_hooks_reach_the_provider(void) { with_recording_plugin(run_host_client); }
static void cuobj_client_sits_on_the_provider_client(void) { with_recording_plugin(run_cuobj_client); }

TEST_MAIN(CASE(host_client_hooks_reach_the_provider), CASE(cuobj_client_sits_on_the_provider_client))
