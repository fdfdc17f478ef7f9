/*
 * provider.h — internal: the provider table (provider.c) and the seams behind which the hardware
 * providers sit, so that server.c / host_client.c / cuobj_client.c stay softnic code with one
 * marked hook per entry point:
 *   - vgw_client_ops_t: a client provider (verbs host client, cuobj vendor client). Its handles
 *     (clients and registrations) are recorded in a handle registry; an ABI entry point asks
 *     vgw_provider_client_ops(handle) and, when it gets ops, forwards the call.
 *   - vgw_server_ops_t: the vendor server (cuObjServer), used by server.c through
 *     cuobj/server_vendor.h.
 * The cuobj provider lives in its own library (libvgwrdma_cuobj.so, linked to NVIDIA's
 * libraries) that provider.c dlopens on first use; verbs is compiled in where rdma-core headers
 * exist and dlopens rdma-core itself.
 */
#ifndef VGW_PROVIDER_H
#define VGW_PROVIDER_H
#include <stdint.h>
#include <sys/types.h>

#include "cuobjserver_wrapper.h"
#include "rdma_host_client_wrapper.h"

const char *vgw_provider_why_not_built(uint32_t provider);

/* Client provider operations. Handles are opaque to the caller; every function records a
 * message with vgw_fail on failure. kind is a CUOBJ_MEMORY_* value (host clients: SYSTEM). */
typedef struct vgw_client_ops {
  const char *name;
  void (*destroy)(void *client);
  void *(*alloc)(void *client, size_t size, uint32_t kind);
  int (*free)(void *client, void *ptr);
  void *(*reg)(void *client, void *ptr, size_t size, uint32_t kind);
  int (*dereg)(void *client, void *mr);
  uint32_t (*mr_rkey)(const void *mr);
  void *(*mr_addr)(const void *mr);
  size_t (*mr_size)(const void *mr);
  uint32_t (*mr_kind)(const void *mr);
  int (*token)(void *client, void *mr, size_t offset, size_t size, uint32_t op, char *out, size_t cap);
} vgw_client_ops_t;

/* Vendor server operations (cuObjServer). transfer: to_client 1 = handleGetObject (RDMA WRITE),
 * 0 = handlePutObject (RDMA READ); returns bytes moved (== size) or a negative errno. */
typedef struct vgw_server_ops {
  void *(*create)(const char *ip, uint16_t port, uint32_t proto, const cuobj_rdma_tunables_t *t);
  void (*destroy)(void *srv);
  int (*is_connected)(void *srv);
  void *(*register_buffer)(void *srv, void *ptr, size_t size);
  int (*deregister_buffer)(void *srv, void *vbuf);
  int (*allocate_channel)(void *srv); /* vendor channel id, or -EBUSY when none is free */
  void (*free_channel)(void *srv, uint16_t channel);
  ssize_t (*transfer)(void *srv, int to_client, const char *key, void *vbuf, uint64_t local_offset,
                      uint64_t remote, size_t size, const char *descr, uint16_t channel);
  int (*set_telemetry)(uint32_t flags);
  void *(*alloc_host_buffer)(void *srv, size_t size); /* page aligned; NULL + vgw_fail */
  void (*free_host_buffer)(void *srv, void *ptr);
} vgw_server_ops_t;

/* What the main library hands a plugin: the last-error sink and the token codec (a plugin has
 * neither: it is a separate library and the last error is thread-local state of this one). */
typedef struct vgw_plugin_host {
  uint32_t plugin_abi;
  int (*fail)(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
  int (*token_parse)(const char *s, cuobj_token_t *out);
} vgw_plugin_host_t;

/* What a provider plugin returns from its entry point (VGW_PLUGIN_ENTRY). */
typedef struct vgw_plugin {
  uint32_t plugin_abi;         /* must equal VGW_PLUGIN_ABI */
  uint32_t vendor_api;         /* cuObjServer API major it was compiled against: 1 or 2 */
  const char *vendor_library;  /* e.g. "libcuobjserver.so", for messages */
  const vgw_server_ops_t *server;
  void *(*client_create)(const rdma_host_client_config_t *cfg); /* NULL + vgw_fail */
  const vgw_client_ops_t *client;
} vgw_plugin_t;

#define VGW_PLUGIN_ABI 1u
#define VGW_PLUGIN_ENTRY "vgw_provider_plugin_init"
typedef const vgw_plugin_t *(*vgw_plugin_init_fn)(const vgw_plugin_host_t *host);

/* The cuobj plugin, loaded on first call (thread-safe); NULL with vgw_fail(-ENODEV, why) when it
 * cannot be: plugin not built here, or its vendor library missing on this machine. */
const vgw_plugin_t *vgw_provider_cuobj_plugin(void);
/* The same for a client: the failure message names libcuobjclient.so instead. */
const vgw_plugin_t *vgw_provider_cuobj_client_plugin(void);
/* Why the cuobj plugin did not load (after a failed vgw_provider_cuobj_plugin), else "". */
const char *vgw_provider_cuobj_why(void);

/* Handle registry: provider-owned clients and their registrations (owner = the client). */
int vgw_provider_handle_add(const void *handle, const vgw_client_ops_t *ops, const void *owner); /* 0 / -ENOMEM */
void vgw_provider_handle_remove(const void *handle);
const vgw_client_ops_t *vgw_provider_client_ops(const void *handle); /* NULL: not provider-owned */

/* Hook helpers for the client ABIs: each returns 1 when h is provider-owned (the call was
 * forwarded; its result is in *rc / *out) and 0 when h is not (the caller goes on as softnic). */
int vgw_pc_destroy(void *client);
int vgw_pc_register(void *client, void *ptr, size_t size, uint32_t kind, void **out);
int vgw_pc_deregister(void *client, void *mr, int *rc);

/* Forward `call` to the provider owning handle h, if any: `VGW_PC_FORWARD(c, alloc(c, n, kind));`
 * returns from the calling function with the provider's result. */
#define VGW_PC_FORWARD(h, call)                                         \
  do {                                                                  \
    const vgw_client_ops_t *vgw_po_ = vgw_provider_client_ops(h);       \
    if (vgw_po_ != NULL) return vgw_po_->call;                          \
  } while (0)

/* Create a provider client for cfg->provider (VERBS, or CUOBJ through the plugin) and record it.
 * NULL + vgw_fail on failure. */
void *vgw_provider_client_create(const rdma_host_client_config_t *cfg);

#endif
