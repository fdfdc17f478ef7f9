// cuobj_server_provider.cpp — the vendor server ops (provider.h vgw_server_ops_t) over NVIDIA's
// cuObjServer, C++17. server.c keeps channels, buffers, window checks and the async workers;
// this file only calls the library and maps its results (vendor_map.h). Built into
// libvgwrdma_cuobj.so where cuobjserver.h exists (cmake/cuobj.cmake), and compile-checked in CI
// against vendor-decl/ for both server ABIs (VGW_CUOBJ_SERVER_API 1 and 2).
// No exception crosses into C: every entry point catches and reports -EIO / -ENOMEM.
#include <cuobjserver.h>

#include <cerrno>
#include <cstdlib>
#include <new>
#include <string>

#include "plugin_host.h"

#ifndef VGW_CUOBJ_SERVER_API
#error "VGW_CUOBJ_SERVER_API (1 or 2) is set by cmake/cuobj.cmake"
#endif

namespace {

// API level for vendor_map: 1.x → 100; 2.x → 210 (the newest 2.x rules we know: -EPROTO, -EBUSY).
constexpr int kApi = VGW_CUOBJ_SERVER_API == 1 ? 100 : 210;

using Tunables = cuObjRDMATunableParam;
using TunableSetter = void (*)(Tunables &, const cuobj_rdma_tunables_t &);

// Our flat tunables → the vendor's setters; one row per field the vendor honours.
const TunableSetter kTunables[] = {
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setNumDcis(t.num_dcis); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setCqDepth(t.cq_depth); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setDcKey(t.dc_key); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setServiceLevel(t.service_level); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setTimeout(t.timeout); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setHopLimit(t.hop_limit); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setPkeyIndex(t.pkey_index); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setMaxSge(t.max_sge); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setDelayInterval(t.delay_interval); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setDelayMode(t.delay_mode); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setQpResetOnFailure(t.qp_reset_on_failure != 0); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setRetryCnt(t.retry_cnt); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setTrafficClass(t.traffic_class); },
    [](Tunables &p, const cuobj_rdma_tunables_t &t) { p.setMaxRdAtomic(t.max_rd_atomic); },
};

cuObjServer *as_server(void *p) { return static_cast<cuObjServer *>(p); }

void *server_create(const char *ip, uint16_t port, uint32_t proto, const cuobj_rdma_tunables_t *t) {
  using vgw_cuobj::host;
  try {
    Tunables params; // 2.x: the constructor is the only place tunables are accepted
    for (TunableSetter set : kTunables) set(params, *t);
    cuObjServer *s = new cuObjServer(ip ? ip : "", port, proto, params);
    if (!s->isConnected()) {
      delete s;
      host->fail(-ENODEV, "cuObjServer on %s:%u did not start (isConnected() is false): no RDMA device with "
                 "that address, or the port is taken", ip ? ip : "", (unsigned)port);
      return nullptr;
    }
    return s;
  } catch (const std::bad_alloc &) {
    host->fail(-ENOMEM, "cuObjServer: out of memory");
  } catch (...) {
    host->fail(-EIO, "cuObjServer constructor threw on %s:%u", ip ? ip : "", (unsigned)port);
  }
  return nullptr;
}

void server_destroy(void *p) {
  try {
    delete as_server(p);
  } catch (...) { // a destructor that throws: nothing left to do but not crash the gateway
  }
}

int server_is_connected(void *p) {
  try {
    return as_server(p)->isConnected() ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

void *server_register(void *p, void *ptr, size_t size) {
  try {
    struct rdma_buffer *b = as_server(p)->registerBuffer(ptr, size);
    if (b == nullptr) vgw_cuobj::host->fail(-ENOMEM, "cuObjServer::registerBuffer of %zu bytes failed", size);
    return b;
  } catch (...) {
    vgw_cuobj::host->fail(-ENOMEM, "cuObjServer::registerBuffer of %zu bytes threw", size);
    return nullptr;
  }
}

int server_deregister(void *p, void *vbuf) {
  try {
    as_server(p)->deRegisterBuffer(static_cast<struct rdma_buffer *>(vbuf));
    return 0;
  } catch (...) {
    return vgw_cuobj::host->fail(-EIO, "cuObjServer::deRegisterBuffer threw");
  }
}

int server_allocate_channel(void *p) {
  try {
    uint16_t id = as_server(p)->allocateChannelId();
    return id == 65535 ? -EBUSY : id;
  } catch (...) {
    return -EBUSY;
  }
}

void server_free_channel(void *p, uint16_t channel) {
  try {
    as_server(p)->freeChannelId(channel);
  } catch (...) {
  }
}

ssize_t server_transfer(void *p, int to_client, const char *key, void *vbuf, uint64_t local_offset, uint64_t remote,
                        size_t size, const char *descr, uint16_t channel) {
  ssize_t n;
  try {
    const std::string k(key ? key : ""), d(descr);
    auto *b = static_cast<struct rdma_buffer *>(vbuf);
    n = to_client ? as_server(p)->handleGetObject(k, b, remote, size, d, channel, local_offset)
                  : as_server(p)->handlePutObject(k, b, remote, size, d, channel, local_offset);
  } catch (...) {
    return vgw_cuobj::host->fail(-EIO, "cuObjServer::%s threw", to_client ? "handleGetObject" : "handlePutObject");
  }
  vgw_cuobj_result_t r = vgw_cuobj_map_result(kApi, n, size);
  if (r.what == nullptr) return r.value;
  return vgw_cuobj::host->fail((int)r.value, "%s (%s returned %zd for %zu bytes on channel %u)", r.what,
                               to_client ? "handleGetObject" : "handlePutObject", n, size, (unsigned)channel);
}

int server_set_telemetry(uint32_t flags) {
  uint32_t log = 0, ops = 0;
  int masks = vgw_cuobj_telemetry_masks(kApi, flags, &log, &ops);
  if (masks < 0) return vgw_cuobj::host->fail(masks, "telemetry flags %#x not understood", flags);
  try {
#if VGW_CUOBJ_SERVER_API == 1
    cuObjServer::setTelemFlags(log);
#else
    cuObjServer::setTelemFlags(log, ops);
#endif
  } catch (...) {
    return vgw_cuobj::host->fail(-EIO, "cuObjServer::setTelemFlags threw");
  }
  return 0;
}

void *server_alloc_host(void *p, size_t size) {
  try {
    void *ptr = as_server(p)->allocHostBuffer(size);
    if (ptr == nullptr) vgw_cuobj::host->fail(-ENOMEM, "cuObjServer::allocHostBuffer of %zu bytes failed", size);
    return ptr;
  } catch (...) {
    vgw_cuobj::host->fail(-ENOMEM, "cuObjServer::allocHostBuffer of %zu bytes threw", size);
    return nullptr;
  }
}

void server_free_host(void *, void *ptr) { std::free(ptr); } // cuObject API: "free with free"

const vgw_server_ops_t kServerOps = {
    server_create,           server_destroy,      server_is_connected, server_register,      server_deregister,
    server_allocate_channel, server_free_channel, server_transfer,     server_set_telemetry, server_alloc_host,
    server_free_host,
};

} // namespace

const vgw_server_ops_t *vgw_cuobj::server_ops() { return &kServerOps; }
