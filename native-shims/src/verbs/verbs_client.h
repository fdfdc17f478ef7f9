/*
 * verbs_client.h — internal: the verbs provider of the host client ABI (rdma_host_client_*):
 * one DC target (DCT, mlx5dv) with the DC key, its CQ/SRQ/PD, one MR per registration with
 * remote read and write, tokens from the real DCT number, port LID, chosen GID and the MR rkey.
 * The gateway (cuObjServer's DC initiators) then reads and writes the memory; this side posts
 * nothing. Compiled only where rdma-core headers exist (VGW_HAVE_VERBS); rdma-core itself is
 * loaded at run time (rdma_core.h).
 */
#ifndef VGW_VERBS_CLIENT_H
#define VGW_VERBS_CLIENT_H

#include "../provider.h"

extern const vgw_client_ops_t vgw_verbs_client_ops;

/* NULL + vgw_fail: -ENODEV (rdma-core missing, no RDMA device, not an mlx5 device, port down),
 * -EINVAL (settings), -ENOENT (no usable GID), or the failing verbs call's errno. */
void *vgw_verbs_client_create(const rdma_host_client_config_t *cfg);

#endif
