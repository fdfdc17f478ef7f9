/*
 * provider.c — the provider table: which transports exist and whether this build has them.
 * Vendor providers are compiled only where their headers were found (CMake defines
 * VGW_HAVE_CUOBJ / VGW_HAVE_VERBS); this build table is what -ENODEV "not built" comes from.
 */
#include <errno.h>
#include <string.h>

#include "provider.h"
#include "vgw_shim_common.h"

#ifndef VGW_HAVE_CUOBJ
#define VGW_HAVE_CUOBJ 0
#endif
#ifndef VGW_HAVE_VERBS
#define VGW_HAVE_VERBS 0
#endif

typedef struct provider_row {
  const char *name;
  int built;
  const char *why_not; /* shown in the -ENODEV message when not built */
} provider_row_t;

static const provider_row_t k_providers[] = {
    [VGW_PROVIDER_SOFTNIC] = {"softnic", 1, ""},
    [VGW_PROVIDER_CUOBJ] = {"cuobj", VGW_HAVE_CUOBJ,
                            "cuobj provider not built: NVIDIA cuobjserver/cuobjclient headers were not found "
                            "at build time (set VGW_CUOBJ_PREFIX and rebuild)"},
    [VGW_PROVIDER_VERBS] = {"verbs", VGW_HAVE_VERBS,
                            "verbs provider not built: rdma-core (infiniband/verbs.h, mlx5dv) headers were not "
                            "found at build time"},
};
#define N_PROVIDERS (sizeof k_providers / sizeof k_providers[0])

int vgw_shim_provider_built(uint32_t provider) {
  if (provider >= N_PROVIDERS) return -EINVAL;
  return k_providers[provider].built;
}

const char *vgw_shim_provider_name(uint32_t provider) {
  return provider < N_PROVIDERS ? k_providers[provider].name : NULL;
}

int vgw_shim_provider_from_name(const char *name) {
  if (name == NULL) return -EINVAL;
  for (uint32_t i = 0; i < N_PROVIDERS; i++)
    if (strcmp(k_providers[i].name, name) == 0) return (int)i;
  return -EINVAL;
}

const char *vgw_provider_why_not_built(uint32_t provider) {
  return provider < N_PROVIDERS ? k_providers[provider].why_not : "unknown provider";
}

uint32_t vgw_shim_abi_version(void) { return VGW_SHIM_ABI_VERSION; }
