// plugin_entry.cpp — the one exported symbol of libvgwrdma_cuobj.so: the main shim library
// (plugin_loader.c) calls vgw_provider_plugin_init with its services and gets the provider's
// server and client operations. Which halves exist depends on the vendor headers found at build
// time (VGW_CUOBJ_HAVE_SERVER / VGW_CUOBJ_HAVE_CLIENT, set by cmake/cuobj.cmake).
#if VGW_CUOBJ_HAVE_SERVER
#include <cuobjserver.h>
#endif
#if VGW_CUOBJ_HAVE_CLIENT
#include <cuobjclient.h>
#endif

#include "plugin_host.h"

#ifndef VGW_CUOBJ_SERVER_API
#define VGW_CUOBJ_SERVER_API 0
#endif

const vgw_plugin_host_t *vgw_cuobj::host = nullptr;

extern "C" __attribute__((visibility("default"))) const vgw_plugin_t *
vgw_provider_plugin_init(const vgw_plugin_host_t *h) {
  if (h == nullptr || h->plugin_abi != VGW_PLUGIN_ABI) return nullptr;
  vgw_cuobj::host = h;
  static const vgw_plugin_t plugin = {
      VGW_PLUGIN_ABI,
      VGW_CUOBJ_SERVER_API,
      "libcuobjserver.so",
#if VGW_CUOBJ_HAVE_SERVER
      vgw_cuobj::server_ops(),
#else
      nullptr,
#endif
#if VGW_CUOBJ_HAVE_CLIENT
      vgw_cuobj::client_create,
      vgw_cuobj::client_ops(),
#else
      nullptr,
      nullptr,
#endif
  };
  return &plugin;
}
