/*
 * host_client_gate.h — internal: a softnic host registration's progress gate, for the GPU
 * client's overlapped staging (cuobj_overlap.c). NULL + vgw_fail for another provider or an
 * unknown registration. Valid until the registration is removed.
 */
#ifndef VGW_HOST_CLIENT_GATE_H
#define VGW_HOST_CLIENT_GATE_H

#include "rdma_host_client_wrapper.h"
#include "softnic/progress.h"

snic_progress_t *vgw_host_mr_gate(rdma_host_client_t *c, rdma_host_mr_t *mr);

#endif
