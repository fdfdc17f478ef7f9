/*
 * verbs_settings.h — internal, pure: the verbs client's device/port/GID/DC-key settings, from
 * the create() config and vgwrdma's environment variables. What the caller set in code wins; an
 * environment variable fills only a field the caller left alone (its RDMA_HOST_CLIENT_SET_* bit
 * clear in explicit_fields and its value still the default):
 *   VGWRDMA_RDMA_DEV   device name            (config dev_name; default: the first device)
 *   VGWRDMA_RDMA_PORT  HCA port 1..255        (config port_num; default 1)
 *   VGWRDMA_GID_INDEX  GID index, -1 = auto   (config gid_index; default -1, see gid_select.h)
 *   VGWRDMA_DC_KEY     DC access key, hex (0x...) or decimal (config dc_key; default 0xffeeddcc)
 * A variable that is set but bad is an error even when the config field wins, so a typo in the
 * environment is never silently ignored.
 */
#ifndef VGW_VERBS_SETTINGS_H
#define VGW_VERBS_SETTINGS_H
#include <stddef.h>
#include <stdint.h>

#include "rdma_host_client_wrapper.h"

typedef struct vgw_verbs_settings {
  char dev[64];   /* "" = first device */
  uint32_t port;
  int gid_index;  /* -1 = auto */
  uint64_t dc_key;
} vgw_verbs_settings_t;

/* getenv-like lookup, so tests pass a table instead of the process environment. */
typedef const char *(*vgw_env_fn)(const char *name);

/* 0, or -EINVAL with a message naming the bad variable / field in why. */
int vgw_verbs_settings_resolve(const rdma_host_client_config_t *cfg, vgw_env_fn env, vgw_verbs_settings_t *out,
                               char *why, size_t cap);

#endif
