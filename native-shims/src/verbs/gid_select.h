/*
 * gid_select.h — internal, pure (no rdma-core): choose the GID a verbs client advertises in its
 * tokens, from the kernel's sysfs view of an RDMA port, the way vgwrdma does:
 *   VGWRDMA_GID_INDEX >= 0  → that index (it must hold a non-zero GID);
 *   -1 (auto)               → the lowest index of the best tier:
 *       0. RoCE v2, not link-local (fe80::/10), not IPv4-mapped  (a routable IPv6 GID)
 *       1. RoCE v2, IPv4-mapped (::ffff:a.b.c.d)
 *       2. "IB/RoCE v1" (RoCE v1, or InfiniBand), any non-zero GID
 *       3. RoCE v2 link-local (last resort: reachable only inside the L2 segment)
 * Files read: <root>/<dev>/ports/<port>/gids/<i> ("fe80:0000:...", 8 groups of 4 hex digits)
 * and <root>/<dev>/ports/<port>/gid_attrs/types/<i> ("RoCE v2" / "IB/RoCE v1"; unreadable for
 * unused entries). root is "/sys/class/infiniband" on a real host, a fixture tree in tests.
 */
#ifndef VGW_VERBS_GID_SELECT_H
#define VGW_VERBS_GID_SELECT_H
#include <stddef.h>
#include <stdint.h>

#define VGW_SYSFS_INFINIBAND "/sys/class/infiniband"
#define VGW_GID_AUTO (-1)

typedef struct vgw_gid_choice {
  int index;      /* GID table index */
  int tier;       /* 0..3 as above; -1 when chosen explicitly */
  int roce_v2;    /* 1 for a "RoCE v2" entry */
  uint8_t gid[16];
} vgw_gid_choice_t;

/* Parses "xxxx:xxxx:...:xxxx" (8 groups) into 16 bytes. 0 or -EINVAL. */
int vgw_gid_parse(const char *text, uint8_t gid[16]);

/* Chooses per the rules above. 0, or a negative errno with a message in why:
 * -ENODEV no such device/port (no gids directory), -ENOENT no usable GID / explicit index empty,
 * -EINVAL want_index < -1. */
int vgw_gid_select(const char *root, const char *dev, uint32_t port, int want_index, vgw_gid_choice_t *out,
                   char *why, size_t cap);

#endif
