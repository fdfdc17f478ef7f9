// plugin_host.h — internal (cuobj plugin, C++): what the main library handed the plugin at init
// (last-error sink, token codec), and the C headers the plugin shares with it. Vendor headers
// must be included BEFORE this one: our public headers #define names (CUOBJ_PROTO_RDMA_DC_V1,
// CUOBJ_MEMORY_*) that NVIDIA's declare as enum constants.
#ifndef VGW_CUOBJ_PLUGIN_HOST_H
#define VGW_CUOBJ_PLUGIN_HOST_H

extern "C" {
#include "../provider.h"
#include "vendor_map.h"
}

namespace vgw_cuobj {
extern const vgw_plugin_host_t *host; // set by vgw_provider_plugin_init before any other call
const vgw_server_ops_t *server_ops();  // nullptr when built without cuobjserver.h
const vgw_client_ops_t *client_ops();  // nullptr when built without cuobjclient.h
void *client_create(const rdma_host_client_config_t *cfg);
} // namespace vgw_cuobj

#endif
