/* provider.h — internal: provider table helpers (see provider.c). */
#ifndef VGW_PROVIDER_H
#define VGW_PROVIDER_H
#include <stdint.h>
const char *vgw_provider_why_not_built(uint32_t provider);
#endif
