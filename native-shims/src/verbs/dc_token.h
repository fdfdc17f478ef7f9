/*
 * dc_token.h — internal, pure: the DC v1 token of a verbs registration, from the real DC target
 * the client created: DCT number (24 bits), port LID (0 on RoCE), the chosen GID, the MR's rkey
 * and the window [addr + offset, +size). docs/protocol.md: GID present = 1 on RoCE; on InfiniBand
 * (LID routed, link-local GID) the GID is still sent, flagged present, as vgwrdma does.
 */
#ifndef VGW_VERBS_DC_TOKEN_H
#define VGW_VERBS_DC_TOKEN_H
#include <stddef.h>
#include <stdint.h>

typedef struct vgw_dc_target {
  uint32_t dctn; /* DCT QP number, 24 bits */
  uint16_t lid;
  uint8_t gid[16];
} vgw_dc_target_t;

typedef struct vgw_dc_window {
  uint64_t mr_addr; /* start of the registration */
  uint64_t mr_size;
  uint32_t rkey;
  uint64_t offset; /* window inside the registration */
  uint64_t size;   /* 1..UINT32_MAX */
} vgw_dc_window_t;

/* Writes the 81-char token into out (cap >= 82). Returns 81, -EINVAL (window outside the
 * registration, size 0 or > UINT32_MAX, DCTN over 24 bits) or -ENOSPC. */
int vgw_dc_token_build(const vgw_dc_target_t *t, const vgw_dc_window_t *w, char *out, size_t cap);

#endif
