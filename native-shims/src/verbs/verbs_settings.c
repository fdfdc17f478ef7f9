/*
 * verbs_settings.c — config + VGWRDMA_* environment → verbs settings (see verbs_settings.h).
 * A table of the four settings keeps the "code, then env, then default" rule in one place.
 */
#include "verbs_settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses an integer in [min, max] (base 0: decimal or 0x hex). 0 or -EINVAL. */
static int parse_int(const char *s, long long min, unsigned long long max, unsigned long long *out) {
  if (s == NULL || *s == '\0') return -EINVAL;
  errno = 0;
  char *end;
  int neg = s[0] == '-';
  unsigned long long v = neg ? (unsigned long long)(-strtoll(s, &end, 10)) : strtoull(s, &end, 0);
  if (errno || *end != '\0') return -EINVAL;
  if (neg ? -(long long)v < min : v > max || (min > 0 && v < (unsigned long long)min)) return -EINVAL;
  *out = neg ? (unsigned long long)-(long long)v : v;
  return 0;
}

typedef struct setting_row {
  const char *env;
  long long min;
  unsigned long long max;
  const char *what;
  uint32_t set_bit;               /* RDMA_HOST_CLIENT_SET_* */
  unsigned long long default_value; /* rdma_host_client_config_default()'s */
} setting_row_t;

enum { S_PORT, S_GID, S_KEY };
static const setting_row_t k_rows[] = {
    [S_PORT] = {"VGWRDMA_RDMA_PORT", 1, 255, "an HCA port number 1..255", RDMA_HOST_CLIENT_SET_PORT_NUM, 1},
    [S_GID] = {"VGWRDMA_GID_INDEX", -1, 65535, "a GID index 0..65535, or -1 for automatic choice",
               RDMA_HOST_CLIENT_SET_GID_INDEX, (unsigned long long)-1LL},
    [S_KEY] = {"VGWRDMA_DC_KEY", 0, UINT64_MAX, "a 64-bit DC key, hex (0x...) or decimal", RDMA_HOST_CLIENT_SET_DC_KEY,
               0xffeeddccull},
};

int vgw_verbs_settings_resolve(const rdma_host_client_config_t *cfg, vgw_env_fn env, vgw_verbs_settings_t *out,
                               char *why, size_t cap) {
  memset(out, 0, sizeof *out);
  const uint32_t set = cfg->explicit_fields;
  const char *dev = cfg->dev_name;
  const int dev_given = (set & RDMA_HOST_CLIENT_SET_DEV_NAME) || (dev != NULL && dev[0] != '\0');
  const char *dev_env = env ? env("VGWRDMA_RDMA_DEV") : NULL;
  if (!dev_given && dev_env != NULL && dev_env[0] != '\0') dev = dev_env;
  if (dev != NULL && strlen(dev) >= sizeof out->dev) {
    snprintf(why, cap, "RDMA device name '%.32s...' is too long", dev);
    return -EINVAL;
  }
  snprintf(out->dev, sizeof out->dev, "%s", dev ? dev : "");

  unsigned long long vals[3] = {cfg->port_num, (unsigned long long)(long long)cfg->gid_index, cfg->dc_key};
  for (int i = 0; i < 3; i++) {
    const setting_row_t *r = &k_rows[i];
    const char *s = env ? env(r->env) : NULL;
    if (s == NULL || s[0] == '\0') continue;
    unsigned long long from_env;
    if (parse_int(s, r->min, r->max, &from_env) != 0) {
      snprintf(why, cap, "%s='%.40s' is not %s", r->env, s, r->what);
      return -EINVAL;
    }
    const int given = (set & r->set_bit) || vals[i] != r->default_value;
    if (!given) vals[i] = from_env;
  }
  out->port = (uint32_t)vals[S_PORT];
  out->gid_index = (int)(long long)vals[S_GID];
  out->dc_key = vals[S_KEY];
  if (out->port < 1 || out->port > 255) {
    snprintf(why, cap, "config port_num %u is not an HCA port number 1..255", out->port);
    return -EINVAL;
  }
  if (out->gid_index < -1) {
    snprintf(why, cap, "config gid_index %d is not a GID index (or -1 for automatic choice)", out->gid_index);
    return -EINVAL;
  }
  return 0;
}
