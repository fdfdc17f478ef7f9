/* test_cuobj_server_glue.c — what server.c's provider hooks hand the vendor server, through the
 * public server ABI, with a RECORDING vendor plugin (test/fixtures/cuobj-plugins/
 * recording_vendor.c: it moves no bytes, it only records its arguments). Checked: tunables and
 * address reach the constructor; registrations, channels (the vendor's own ids), local offsets,
 * the absolute remote address and the canonical 81-char token (override suffix dropped after
 * server.c checked the window) reach handle*Object, for sync and async calls; softnic-only token
 * rules do not apply; a vendor errno comes back unchanged; telemetry, deregister, free, destroy.
 * Runs in a forked child: the plugin loader caches per process. */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "harness.h"

#include "fixtures/cuobj-plugins/recording_vendor.h"
#include "harness_plugin.h"

static const vgw_fx_record_t *recording(void) { return recording_plugin_record("vgw_fx_recording"); }

/* A token for [addr, +size) with a GID softnic would refuse (not IPv4-mapped): the vendor routes. */
static void make_token(uint64_t addr, uint32_t size, int override, uint64_t oaddr, uint64_t osize, char *out) {
  cuobj_token_t t = {.addr = addr, .size = size, .rkey = 0xabcdef01, .lid = 7, .gid_present = 1, .dctn = 0x123456};
  t.gid[0] = 0x20, t.gid[1] = 0x01, t.gid[15] = 0x42;
  t.has_override = (uint8_t)override;
  t.override_addr = oaddr;
  t.override_size = osize;
  CHECK(cuobj_token_format(&t, out, 160) > 0);
}

static void run_glue(void) {
  cuobj_rdma_tunables_t t;
  cuobj_server_tunables_default(&t);
  t.provider = VGW_PROVIDER_CUOBJ;
  t.num_dcis = 4;
  t.dc_key = 0x1234;
  t.cq_depth = 321;
  t.retry_cnt = 5;
  cuobj_server_t *s = cuobj_server_create_with_config("10.1.2.3", 19100, CUOBJ_PROTO_RDMA_DC_V1, &t);
  CHECK(s != NULL);
  const vgw_fx_record_t *r = recording();
  CHECK_EQ_INT(r->creates, 1);
  CHECK(strcmp(r->ip, "10.1.2.3") == 0);
  CHECK_EQ_INT(r->port, 19100);
  CHECK_EQ_INT(r->proto, CUOBJ_PROTO_RDMA_DC_V1);
  CHECK_EQ_INT(r->num_dcis, 4);
  CHECK_EQ_INT(r->cq_depth, 321);
  CHECK_EQ_INT(r->retry_cnt, 5);
  CHECK(r->dc_key == 0x1234);
  CHECK_EQ_INT(cuobj_server_provider(s), VGW_PROVIDER_CUOBJ);
  CHECK_EQ_INT(cuobj_server_is_connected(s), 1);

  size_t bsize = 1u << 20;
  uint8_t *mem = cuobj_server_alloc_host_buffer(s, bsize);
  CHECK(mem != NULL);
  CHECK_EQ_INT(r->host_allocs, 1); /* the vendor's allocHostBuffer */
  CHECK(((uintptr_t)mem & 4095) == 0);
  uint8_t *left = cuobj_server_alloc_host_buffer(s, 100); /* not freed: destroy gives it back */
  CHECK(left != NULL);
  cuobj_rdma_buffer_t *buf = cuobj_server_register_buffer(s, mem, bsize);
  CHECK(buf != NULL);
  CHECK_EQ_INT(r->registers, 1);
  CHECK(r->reg_ptr == mem && r->reg_size == bsize);
  uint16_t ch = cuobj_server_allocate_channel(s);
  CHECK_EQ_INT(ch, 0); /* ours */
  /* sync GET into the client, override window [A+4096, +8192), local offset 512 */
  uint64_t a = 0x00007f0000000000ull;
  char tok[160], canon[160];
  make_token(a, 1u << 20, 1, a + 4096, 8192, tok);
  make_token(a, 1u << 20, 0, 0, 0, canon);
  CHECK_EQ_INT(cuobj_server_handle_get_ex(s, "k", buf, 512, a + 4096, 8192, tok, ch), 8192);
  CHECK_EQ_INT(r->transfers, 1);
  CHECK_EQ_INT(r->to_client, 1);
  CHECK_EQ_INT(r->channel, 40); /* the vendor's id behind our channel 0 */
  CHECK_EQ_INT(r->local_offset, 512);
  CHECK(r->remote == a + 4096);
  CHECK_EQ_INT(r->size, 8192);
  CHECK(strcmp(r->descr, canon) == 0); /* canonical: the suffix is gone */
  CHECK_EQ_INT(strlen(r->descr), 81);
  void *vbuf = r->vbuf;
  CHECK(vbuf != NULL);
  /* window checks stay server.c's: outside the override window → -EINVAL, vendor not called */
  CHECK_EQ_INT(cuobj_server_handle_get_ex(s, "k", buf, 0, a, 16, tok, ch), -EINVAL);
  CHECK_EQ_INT(r->transfers, 1);
  /* a vendor errno comes back as is */
  CHECK_EQ_INT(cuobj_server_handle_put(s, "k", buf, a, 13, canon, ch), -EPROTO);
  CHECK_EQ_INT(r->to_client, 0);
  CHECK_EQ_INT(r->local_offset, 0);
  /* async PUT on a second channel: completion through the eventfd */
  uint16_t ch2 = cuobj_server_allocate_channel(s);
  CHECK_EQ_INT(ch2, 1);
  CHECK_EQ_INT(cuobj_server_submit_put(s, "k2", buf, 4096, a + 100, 1000, canon, ch2, 77), 0);
  struct pollfd pfd = {.fd = cuobj_server_completion_fd(s), .events = POLLIN};
  CHECK_EQ_INT(poll(&pfd, 1, 10000), 1);
  cuobj_async_event_t ev[4];
  CHECK_EQ_INT(cuobj_server_poll_completions(s, ev, 4), 1);
  CHECK(ev[0].user_tag == 77 && ev[0].status == 1000);
  CHECK_EQ_INT(r->channel, 41);
  CHECK_EQ_INT(r->local_offset, 4096);
  CHECK(r->remote == a + 100);
  CHECK(r->vbuf == vbuf);

  CHECK_EQ_INT(cuobj_server_set_telemetry_flags(7), 0);
  CHECK_EQ_INT(r->telemetry, 7);
  CHECK_EQ_INT(cuobj_server_free_channel(s, ch2), 0);
  CHECK_EQ_INT(r->last_freed_vch, 41);
  CHECK_EQ_INT(cuobj_server_deregister_buffer(s, buf), 0);
  CHECK_EQ_INT(r->deregisters, 1);
  CHECK(r->last_vbuf_deregistered == vbuf);
  cuobj_server_free_host_buffer(s, mem);
  CHECK_EQ_INT(r->host_frees, 1);
  CHECK(r->last_host_freed == mem);
  cuobj_server_destroy(s); /* channel 0 still allocated: destroy frees its vendor id too */
  CHECK_EQ_INT(r->last_freed_vch, 40);
  CHECK_EQ_INT(r->destroys, 1);
  CHECK_EQ_INT(r->host_frees, 2);
  CHECK(r->last_host_freed == left);
}

static void vendor_hooks_get_the_right_arguments(void) { with_recording_plugin(run_glue); }

TEST_MAIN(CASE(vendor_hooks_get_the_right_arguments))
