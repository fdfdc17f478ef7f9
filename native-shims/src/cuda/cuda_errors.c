/*
 * cuda_errors.c — CUDA runtime errors (cudaError_t) as negative errnos plus a readable
 * message, one table. Codes the table does not know map to -EIO; the message always carries
 * the runtime's own name and text for the code.
 */
#include <errno.h>
#include <stddef.h>

#include "../last_error.h"
#include "cuda_api.h"

typedef struct cuda_errno_row {
  int cuda;
  int err;
} cuda_errno_row_t;

static const cuda_errno_row_t k_rows[] = {
    {1, -EINVAL},   /* cudaErrorInvalidValue */
    {2, -ENOMEM},   /* cudaErrorMemoryAllocation */
    {3, -ENODEV},   /* cudaErrorInitializationError */
    {4, -ENODEV},   /* cudaErrorCudartUnloading */
    {17, -EFAULT},  /* cudaErrorInvalidDevicePointer */
    {21, -EINVAL},  /* cudaErrorInvalidMemcpyDirection */
    {34, -ENODEV},  /* cudaErrorStubLibrary */
    {35, -ENODEV},  /* cudaErrorInsufficientDriver */
    {46, -EBUSY},   /* cudaErrorDevicesUnavailable */
    {100, -ENODEV}, /* cudaErrorNoDevice */
    {101, -ENODEV}, /* cudaErrorInvalidDevice */
    {201, -ENODEV}, /* cudaErrorDeviceUninitialized */
    {400, -EINVAL}, /* cudaErrorInvalidResourceHandle */
    {700, -EFAULT}, /* cudaErrorIllegalAddress (sticky: the context is lost) */
    {712, -EBUSY},  /* cudaErrorHostMemoryAlreadyRegistered */
    {713, -EINVAL}, /* cudaErrorHostMemoryNotRegistered */
    {802, -ENODEV}, /* cudaErrorSystemNotReady */
    {803, -ENODEV}, /* cudaErrorSystemDriverMismatch */
    {804, -ENODEV}, /* cudaErrorCompatNotSupportedOnDevice */
};

int vgw_cuda_errno(int cuda_err) {
  for (size_t i = 0; i < sizeof k_rows / sizeof k_rows[0]; i++)
    if (k_rows[i].cuda == cuda_err) return k_rows[i].err;
  return -EIO;
}

int vgw_cuda_fail(const vgw_cuda_api_t *api, int cuda_err, const char *what) {
  const char *name = api && api->error_name ? api->error_name(cuda_err) : NULL;
  const char *text = api && api->error_string ? api->error_string(cuda_err) : NULL;
  if (api && api->get_last_error) (void)api->get_last_error(); /* reset non-sticky state */
  return vgw_fail(vgw_cuda_errno(cuda_err), "%s: %s (%d): %s", what, name ? name : "cudaError", cuda_err,
                  text ? text : "no description");
}
