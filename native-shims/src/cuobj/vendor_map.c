/*
 * vendor_map.c — result / telemetry / version rules of the cuObjServer ABIs (see vendor_map.h).
 * The error table is the one place that knows which library version introduced which errno.
 */
#include "vendor_map.h"

#include <errno.h>

typedef struct err_row {
  int vendor_err; /* negative */
  int since_api;  /* first API level that returns it */
  const char *what;
} err_row_t;

static const err_row_t k_errors[] = {
    {-ENODEV, 100, "cuObjServer: no usable RDMA device or the client's DC target is unreachable"},
    {-EIO, 100, "cuObjServer: the RDMA transfer failed (work completion error)"},
    {-ENOMEM, 100, "cuObjServer: out of memory or RDMA resources"},
    {-EAFNOSUPPORT, 100, "cuObjServer: the token's address family is not supported"},
    {-EPROTO, 200, "cuObjServer: the token (RDMA descriptor) was refused"},
    {-EBUSY, 210, "cuObjServer: the channel is busy"},
};

vgw_cuobj_result_t vgw_cuobj_map_result(int api, ssize_t ret, size_t expected) {
  if (ret > 0 && (size_t)ret == expected) return (vgw_cuobj_result_t){ret, NULL};
  if (ret >= 0) return (vgw_cuobj_result_t){-EIO, "cuObjServer moved fewer bytes than asked (short transfer)"};
  for (size_t i = 0; i < sizeof k_errors / sizeof k_errors[0]; i++)
    if (k_errors[i].vendor_err == ret && api >= k_errors[i].since_api)
      return (vgw_cuobj_result_t){ret, k_errors[i].what};
  return (vgw_cuobj_result_t){-EIO, "cuObjServer returned an error this library version does not document"};
}

uint32_t vgw_cuobj_telemetry_flags(int debug) {
  return debug ? VGW_CUOBJ_LOG_PATH_INFO | VGW_CUOBJ_LOG_DEBUG | VGW_CUOBJ_LOG_ERROR : VGW_CUOBJ_LOG_ERROR;
}

int vgw_cuobj_telemetry_masks(int api, uint32_t flags, uint32_t *log, uint32_t *ops) {
  const uint32_t known = VGW_CUOBJ_LOG_PATH_INFO | VGW_CUOBJ_LOG_DEBUG | VGW_CUOBJ_LOG_ERROR;
  if ((flags & ~known) != 0 || api < 100 || api >= 300) return -EINVAL;
  *log = flags;
  *ops = api >= 200 && (flags & VGW_CUOBJ_LOG_DEBUG) ? VGW_CUOBJ_LOG_OPS_ALL : 0;
  return api >= 200 ? 2 : 1;
}

int vgw_cuobj_tunables_after_create(int api) { return api < 200; }
