/* test_verbs_logic.c — the verbs provider's pure logic, no RDMA device needed: GID choice on the
 * fixture sysfs tree (test/fixtures/sysfs-infiniband), settings from config + VGWRDMA_* env,
 * and the DC token built from a DC target and an MR window. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cuobj_token.h"
#include "harness.h"
#include "verbs/dc_token.h"
#include "verbs/gid_select.h"
#include "verbs/verbs_settings.h"

static const char *fixture_root(void) {
  static char root[PATH_MAX];
  char file[PATH_MAX];
  snprintf(file, sizeof file, "%s", __FILE__);
  snprintf(root, sizeof root, "%s/fixtures/sysfs-infiniband", dirname(file));
  return root;
}

static int select_on(const char *dev, uint32_t port, int want, vgw_gid_choice_t *c, char *why) {
  memset(c, 0, sizeof *c);
  return vgw_gid_select(fixture_root(), dev, port, want, c, why, 256);
}

static void gid_parse_accepts_sysfs_text_only(void) {
  uint8_t g[16];
  CHECK_EQ_INT(vgw_gid_parse("0000:0000:0000:0000:0000:ffff:0a00:0005\n", g), 0);
  CHECK(g[10] == 0xff && g[11] == 0xff && g[12] == 10 && g[15] == 5);
  CHECK_EQ_INT(vgw_gid_parse("FE80:0000:0000:0000:0202:C9FF:FE00:0001", g), 0);
  CHECK(g[0] == 0xfe && g[1] == 0x80 && g[9] == 0x02);
  CHECK_EQ_INT(vgw_gid_parse("fe80::1", g), -EINVAL);
  CHECK_EQ_INT(vgw_gid_parse("fe80:0000:0000:0000:0202:c9ff:fe00", g), -EINVAL);
  CHECK_EQ_INT(vgw_gid_parse("fe80:0000:0000:0000:0202:c9ff:fe00:00011", g), -EINVAL);
  CHECK_EQ_INT(vgw_gid_parse("fe80-0000:0000:0000:0202:c9ff:fe00:0001", g), -EINVAL);
  CHECK_EQ_INT(vgw_gid_parse(NULL, g), -EINVAL);
}

static void auto_prefers_routable_roce_v2(void) {
  vgw_gid_choice_t c;
  char why[256];
  CHECK_EQ_INT(select_on("mlx5_0", 1, VGW_GID_AUTO, &c, why), 0);
  CHECK_EQ_INT(c.index, 4); /* 2001:db8::5 v2 beats the IPv4-mapped v2 (3) and the higher index 12 */
  CHECK_EQ_INT(c.tier, 0);
  CHECK_EQ_INT(c.roce_v2, 1);
  CHECK(c.gid[0] == 0x20 && c.gid[1] == 0x01 && c.gid[15] == 5);
}

static void auto_takes_ipv4_mapped_v2_next(void) {
  vgw_gid_choice_t c;
  char why[256];
  CHECK_EQ_INT(select_on("mlx5_1", 1, VGW_GID_AUTO, &c, why), 0);
  CHECK_EQ_INT(c.index, 3); /* not the v1 entry 2 with the same address, not link-local 1 */
  CHECK_EQ_INT(c.tier, 1);
  static const uint8_t want[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 1, 7};
  CHECK(memcmp(c.gid, want, 16) == 0);
}

static void auto_falls_back_to_v1_then_link_local_v2(void) {
  vgw_gid_choice_t c;
  char why[256];
  CHECK_EQ_INT(select_on("mlx5_ib", 1, VGW_GID_AUTO, &c, why), 0); /* InfiniBand: no types files */
  CHECK_EQ_INT(c.index, 0);
  CHECK_EQ_INT(c.tier, 2);
  CHECK_EQ_INT(c.roce_v2, 0);
  CHECK_EQ_INT(select_on("mlx5_ll", 1, VGW_GID_AUTO, &c, why), 0);
  CHECK_EQ_INT(c.index, 1);
  CHECK_EQ_INT(c.tier, 3);
  CHECK_EQ_INT(select_on("mlx5_bad", 1, VGW_GID_AUTO, &c, why), 0); /* malformed entry 0 skipped */
  CHECK_EQ_INT(c.index, 1);
}

static void explicit_index_and_refusals(void) {
  vgw_gid_choice_t c;
  char why[256];
  CHECK_EQ_INT(select_on("mlx5_0", 1, 2, &c, why), 0); /* an explicit index is taken as is, even v1 */
  CHECK_EQ_INT(c.index, 2);
  CHECK_EQ_INT(c.tier, -1);
  CHECK_EQ_INT(c.roce_v2, 0);
  CHECK_EQ_INT(select_on("mlx5_0", 1, 5, &c, why), -ENOENT); /* all-zero entry */
  CHECK(strstr(why, "GID index 5") != NULL);
  CHECK_EQ_INT(select_on("mlx5_0", 1, 40, &c, why), -ENOENT);
  CHECK_EQ_INT(select_on("mlx5_1", 2, VGW_GID_AUTO, &c, why), -ENOENT);
  CHECK(strstr(why, "no usable GID") != NULL);
  CHECK_EQ_INT(select_on("mlx5_1", 3, VGW_GID_AUTO, &c, why), -ENODEV);
  CHECK(strstr(why, "no port 3") != NULL);
  CHECK_EQ_INT(select_on("mlx5_9", 1, VGW_GID_AUTO, &c, why), -ENODEV);
  CHECK_EQ_INT(select_on("mlx5_0", 1, -2, &c, why), -EINVAL);
}

/* ---- settings */

static const char *const *g_env; /* NULL-terminated name, value pairs */
static const char *table_env(const char *name) {
  for (const char *const *p = g_env; p && p[0]; p += 2)
    if (strcmp(p[0], name) == 0) return p[1];
  return NULL;
}

static void settings_code_wins_over_env(void) {
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  vgw_verbs_settings_t s;
  char why[256];
  g_env = NULL;
  CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), 0);
  CHECK(strcmp(s.dev, "") == 0); /* first device */
  CHECK_EQ_INT(s.port, 1);
  CHECK_EQ_INT(s.gid_index, -1); /* auto by default */
  CHECK(s.dc_key == 0xffeeddccull);
  static const char *const env[] = {"VGWRDMA_RDMA_DEV", "mlx5_0", "VGWRDMA_RDMA_PORT", "2", "VGWRDMA_GID_INDEX", "5",
                                    "VGWRDMA_DC_KEY", "0x1122334455667788", NULL};
  g_env = env;
  /* nothing set in code: the environment fills every field */
  CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), 0);
  CHECK(strcmp(s.dev, "mlx5_0") == 0);
  CHECK_EQ_INT(s.port, 2);
  CHECK_EQ_INT(s.gid_index, 5);
  CHECK(s.dc_key == 0x1122334455667788ull);
  /* values other than the defaults count as set in code, even without the bits (older callers) */
  cfg.dev_name = "mlx5_1";
  cfg.gid_index = 3;
  cfg.dc_key = 7;
  CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), 0);
  CHECK(strcmp(s.dev, "mlx5_1") == 0);
  CHECK_EQ_INT(s.gid_index, 3);
  CHECK(s.dc_key == 7);
  CHECK_EQ_INT(s.port, 2); /* port left at its default: the environment's */
  /* the bits mark a default value given on purpose: port 1, auto GID, first device, default key */
  rdma_host_client_config_default(&cfg);
  cfg.explicit_fields = RDMA_HOST_CLIENT_SET_DEV_NAME | RDMA_HOST_CLIENT_SET_PORT_NUM |
                        RDMA_HOST_CLIENT_SET_GID_INDEX | RDMA_HOST_CLIENT_SET_DC_KEY;
  CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), 0);
  CHECK(strcmp(s.dev, "") == 0);
  CHECK_EQ_INT(s.port, 1);
  CHECK_EQ_INT(s.gid_index, -1);
  CHECK(s.dc_key == 0xffeeddccull);
  /* one bit: only that field is kept from code */
  cfg.explicit_fields = RDMA_HOST_CLIENT_SET_PORT_NUM;
  CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), 0);
  CHECK_EQ_INT(s.port, 1);
  CHECK(strcmp(s.dev, "mlx5_0") == 0);
  CHECK_EQ_INT(s.gid_index, 5);
  static const char *const dec[] = {"VGWRDMA_DC_KEY", "4293844428", "VGWRDMA_RDMA_DEV", "", NULL};
  g_env = dec; /* decimal key; an empty variable counts as unset */
  rdma_host_client_config_default(&cfg);
  cfg.dc_key = 9;
  CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), 0);
  CHECK(s.dc_key == 9);
  CHECK(strcmp(s.dev, "") == 0);
  cfg.dc_key = 0xffeeddccull;
  static const char *const dec2[] = {"VGWRDMA_DC_KEY", "4293844429", NULL};
  g_env = dec2;
  CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), 0);
  CHECK(s.dc_key == 4293844429ull);
}

static void settings_refuse_bad_values_naming_them(void) {
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  vgw_verbs_settings_t s;
  char why[256];
  static const char *const bad[][3] = {
      {"VGWRDMA_RDMA_PORT", "0", NULL},  {"VGWRDMA_RDMA_PORT", "256", NULL}, {"VGWRDMA_RDMA_PORT", "1x", NULL},
      {"VGWRDMA_GID_INDEX", "-2", NULL}, {"VGWRDMA_GID_INDEX", "abc", NULL}, {"VGWRDMA_DC_KEY", "0xzz", NULL},
      {"VGWRDMA_DC_KEY", "-5", NULL},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    g_env = bad[i];
    CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), -EINVAL);
    CHECK(strstr(why, bad[i][0]) != NULL);
  }
  /* a bad variable is an error even when the field was set in code (a typo is never ignored) */
  static const char *const bad_port[] = {"VGWRDMA_RDMA_PORT", "x", NULL};
  g_env = bad_port;
  cfg.explicit_fields = RDMA_HOST_CLIENT_SET_PORT_NUM;
  CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), -EINVAL);
  CHECK(strstr(why, "VGWRDMA_RDMA_PORT") != NULL);
  g_env = NULL;
  cfg.port_num = 0;
  CHECK_EQ_INT(vgw_verbs_settings_resolve(&cfg, table_env, &s, why, sizeof why), -EINVAL);
  CHECK(strstr(why, "port_num") != NULL);
}

/* ---- token */

static void token_from_dc_target(void) {
  vgw_dc_target_t t = {.dctn = 0x7a03, .lid = 0};
  t.gid[10] = t.gid[11] = 0xff;
  t.gid[12] = 0x0f, t.gid[13] = 0x0f, t.gid[14] = 0x0f, t.gid[15] = 0xdf;
  vgw_dc_window_t w = {.mr_addr = 0x000073967e5ff000ull, .mr_size = 8u << 20, .rkey = 0x01f2e973, .offset = 0,
                       .size = 0x00400000};
  char out[128];
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, sizeof out), 81);
  /* docs/protocol.md's real sample, rebuilt from its parts */
  CHECK(strcmp(out, "000073967e5ff000:00400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf") == 0);
  w.offset = 4096;
  w.size = 100;
  t.lid = 0x12;
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, sizeof out), 81);
  cuobj_token_t back;
  CHECK_EQ_INT(cuobj_token_parse(out, &back), 0);
  CHECK(back.addr == 0x000073967e5ff000ull + 4096);
  CHECK_EQ_INT(back.size, 100);
  CHECK_EQ_INT(back.lid, 0x12);
  CHECK_EQ_INT(back.dctn, 0x7a03);
  CHECK_EQ_INT(back.gid_present, 1);
}

static void token_window_and_limits(void) {
  vgw_dc_target_t t = {.dctn = 1};
  vgw_dc_window_t w = {.mr_addr = 0x1000, .mr_size = 4096, .rkey = 1, .offset = 4000, .size = 96};
  char out[128];
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, sizeof out), 81); /* exactly to the end */
  w.size = 97;
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, sizeof out), -EINVAL);
  w.offset = 5000;
  w.size = 1;
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, sizeof out), -EINVAL);
  w = (vgw_dc_window_t){.mr_addr = 0x1000, .mr_size = 8ull << 30, .rkey = 1, .offset = 0, .size = 1ull << 32};
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, sizeof out), -EINVAL); /* u32 size field */
  w.size = 0;
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, sizeof out), -EINVAL);
  w.size = 1;
  t.dctn = 1u << 24;
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, sizeof out), -EINVAL);
  t.dctn = 0xffffff;
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, 81), -ENOSPC);
  CHECK_EQ_INT(vgw_dc_token_build(&t, &w, out, 82), 81);
}

TEST_MAIN(CASE(gid_parse_accepts_sysfs_text_only), CASE(auto_prefers_routable_roce_v2),
          CASE(auto_takes_ipv4_mapped_v2_next), CASE(auto_falls_back_to_v1_then_link_local_v2),
          CASE(explicit_index_and_refusals), CASE(settings_code_wins_over_env),
          CASE(settings_refuse_bad_values_naming_them), CASE(token_from_dc_target), CASE(token_window_and_limits))
