// cuobj_client_provider.cpp — the vendor client ops (provider.h vgw_client_ops_t) over NVIDIA's
// cuObjClient, C++17: the token-only path. A session registers its memory once
// (cuMemObjGetDescriptor: host memory, or CUDA device memory directly — GPUDirect, no staging),
// mints one token per request (cuMemObjGetRDMAToken, copied out, then cuMemObjPutRDMAToken), and
// on deregister / destroy waits for the device (cudaDeviceSynchronize, when a CUDA runtime is in
// the process) before cuMemObjPutDescriptor. The library's synchronous get/put callbacks are
// never used (no cuObjGet/cuObjPut): they answer -ENOTSUP, so nothing ever calls back into JS.
#include <cuobjclient.h>

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "plugin_host.h"

namespace {

// Values of our ABI (cuobjclient_wrapper.h), spelled here because NVIDIA's header declares the
// same names as enum constants.
constexpr uint32_t kKindSystem = 0, kKindCudaDevice = 2;
constexpr int kProtoDcV1 = 1001; // cuObjProto_t CUOBJ_PROTO_RDMA_DC_V1 (our header #defines that name)

ssize_t refuse_get(const void *, char *, size_t, loff_t, const cufileRDMAInfo_t *) { return -ENOTSUP; }
ssize_t refuse_put(const void *, const char *, size_t, loff_t, const cufileRDMAInfo_t *) { return -ENOTSUP; }

struct VendorMr {
  void *addr;
  size_t size;
  uint32_t kind;
  uint32_t rkey;
};

struct Alloc {
  void *ptr;
  size_t mapped;
};

struct VendorClient {
  CUObjOps_t ops{refuse_get, refuse_put}; // must outlive cli (the library keeps a reference)
  cuObjClient *cli = nullptr;
  std::mutex mu;
  std::vector<VendorMr *> mrs;
  std::vector<Alloc> allocs;
};

VendorClient *as_client(void *p) { return static_cast<VendorClient *>(p); }

// cudaDeviceSynchronize of a CUDA runtime already loaded in this process (by the application or
// by the shims' CUDA staging), or nullptr: no runtime loaded means no device work to wait for.
using SyncFn = int (*)();
SyncFn device_sync() {
  for (const char *lib : {"libcudart.so", "libcudart.so.13", "libcudart.so.12"}) {
    void *h = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
    if (h == nullptr) continue;
    void *f = dlsym(h, "cudaDeviceSynchronize");
    dlclose(h); // NOLOAD took a reference; the runtime stays loaded by its owner
    SyncFn fn;
    std::memcpy(&fn, &f, sizeof fn);
    if (fn != nullptr) return fn;
  }
  return nullptr;
}

// Waits for the device (CUDA memory) and releases the registration. 0 or negative errno.
int release(VendorClient *c, VendorMr *m) {
  if (m->kind == kKindCudaDevice) {
    if (SyncFn sync = device_sync()) sync();
  }
  return c->cli->cuMemObjPutDescriptor(m->addr) == CU_OBJ_SUCCESS
             ? 0
             : vgw_cuobj::host->fail(-EIO, "cuMemObjPutDescriptor failed for %p", m->addr);
}

// Mints a token into out; length or negative errno.
int mint(VendorClient *c, const VendorMr *m, size_t offset, size_t size, cuObjOpType_t op, char *out, size_t cap) {
  char *desc = nullptr;
  if (c->cli->cuMemObjGetRDMAToken(m->addr, size, offset, op, &desc) != CU_OBJ_SUCCESS || desc == nullptr)
    return vgw_cuobj::host->fail(-EIO, "cuMemObjGetRDMAToken failed for [%zu,+%zu) of %p", offset, size, m->addr);
  size_t n = std::strlen(desc);
  int rc = n + 1 > cap ? vgw_cuobj::host->fail(-ENOSPC, "token: buffer of %zu bytes < %zu", cap, n + 1) : (int)n;
  if (rc >= 0) std::memcpy(out, desc, n + 1);
  c->cli->cuMemObjPutRDMAToken(desc);
  return rc;
}

void client_destroy(void *p) {
  VendorClient *c = as_client(p);
  for (VendorMr *m : c->mrs) {
    release(c, m);
    delete m;
  }
  for (const Alloc &a : c->allocs) munmap(a.ptr, a.mapped);
  try {
    delete c->cli;
  } catch (...) {
  }
  delete c;
}

void *client_alloc(void *p, size_t size, uint32_t kind) {
  if (kind != kKindSystem)
    return vgw_cuobj::host->fail(-ENOTSUP, "alloc: the cuobj client allocates host memory only (device memory "
                                 "comes from the CUDA runtime)"), nullptr;
  if (size == 0 || size > RDMA_HOST_MAX_REGION)
    return vgw_cuobj::host->fail(-EINVAL, "alloc: size %zu not in 1..4 GiB - 64 KiB", size), nullptr;
  size_t page = (size_t)sysconf(_SC_PAGESIZE), mapped = (size + page - 1) / page * page;
  void *ptr = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (ptr == MAP_FAILED) return vgw_cuobj::host->fail(-ENOMEM, "alloc: cannot map %zu bytes", size), nullptr;
  VendorClient *c = as_client(p);
  std::lock_guard<std::mutex> lock(c->mu);
  c->allocs.push_back({ptr, mapped});
  return ptr;
}

int client_free(void *p, void *ptr) {
  VendorClient *c = as_client(p);
  std::lock_guard<std::mutex> lock(c->mu);
  for (size_t i = 0; i < c->allocs.size(); i++) {
    if (c->allocs[i].ptr != ptr) continue;
    for (const VendorMr *m : c->mrs)
      if ((char *)m->addr < (char *)ptr + c->allocs[i].mapped && (char *)m->addr + m->size > (char *)ptr)
        return vgw_cuobj::host->fail(-EBUSY, "free: memory still registered");
    munmap(ptr, c->allocs[i].mapped);
    c->allocs.erase(c->allocs.begin() + (long)i);
    return 0;
  }
  return vgw_cuobj::host->fail(-EINVAL, "free: not allocated by this client");
}

void *client_reg(void *p, void *ptr, size_t size, uint32_t kind) {
  VendorClient *c = as_client(p);
  if (kind != kKindSystem && kind != kKindCudaDevice)
    return vgw_cuobj::host->fail(-ENOTSUP, "register: memory kind %u not supported by the cuobj client", kind), nullptr;
  if (ptr == nullptr || size == 0 || size > RDMA_HOST_MAX_REGION)
    return vgw_cuobj::host->fail(-EINVAL, "register: NULL pointer or size %zu not in 1..4 GiB - 64 KiB", size), nullptr;
  try {
    if (c->cli->cuMemObjGetDescriptor(ptr, size) != CU_OBJ_SUCCESS)
      return vgw_cuobj::host->fail(-EIO, "cuMemObjGetDescriptor of %zu bytes at %p failed", size, ptr), nullptr;
    auto *m = new VendorMr{ptr, size, kind, 0};
    char probe[256]; // the rkey is only visible in a token: mint a 1-byte one and read it
    cuobj_token_t t;
    if (mint(c, m, 0, 1, CUOBJ_GET, probe, sizeof probe) < 0 || vgw_cuobj::host->token_parse(probe, &t) != 0) {
      release(c, m);
      delete m;
      return vgw_cuobj::host->fail(-EIO, "cuMemObjGetRDMAToken gave no DC v1 token for %p", ptr), nullptr;
    }
    m->rkey = t.rkey;
    std::lock_guard<std::mutex> lock(c->mu);
    c->mrs.push_back(m);
    return m;
  } catch (...) {
    return vgw_cuobj::host->fail(-ENOMEM, "register: out of memory"), nullptr;
  }
}

int client_dereg(void *p, void *mr) {
  VendorClient *c = as_client(p);
  {
    std::lock_guard<std::mutex> lock(c->mu);
    auto it = std::find(c->mrs.begin(), c->mrs.end(), static_cast<VendorMr *>(mr));
    if (it == c->mrs.end()) return vgw_cuobj::host->fail(-EINVAL, "deregister: unknown registration");
    c->mrs.erase(it);
  }
  auto *m = static_cast<VendorMr *>(mr);
  int rc = release(c, m);
  delete m;
  return rc;
}

uint32_t mr_rkey(const void *mr) { return static_cast<const VendorMr *>(mr)->rkey; }
void *mr_addr(const void *mr) { return static_cast<const VendorMr *>(mr)->addr; }
size_t mr_size(const void *mr) { return static_cast<const VendorMr *>(mr)->size; }
uint32_t mr_kind(const void *mr) { return static_cast<const VendorMr *>(mr)->kind; }

int client_token(void *p, void *mr, size_t offset, size_t size, uint32_t op, char *out, size_t cap) {
  VendorClient *c = as_client(p);
  auto *m = static_cast<VendorMr *>(mr);
  {
    std::lock_guard<std::mutex> lock(c->mu);
    if (out == nullptr || std::find(c->mrs.begin(), c->mrs.end(), m) == c->mrs.end())
      return vgw_cuobj::host->fail(-EINVAL, "token: unknown registration");
  }
  if (op != CUOBJ_OP_GET && op != CUOBJ_OP_PUT) return vgw_cuobj::host->fail(-EINVAL, "token: op %u is not GET/PUT", op);
  if (size == 0 || size > UINT32_MAX || offset > m->size || size > m->size - offset)
    return vgw_cuobj::host->fail(-EINVAL, "token: [%zu,+%zu) outside the %zu-byte registration", offset, size, m->size);
  return mint(c, m, offset, size, op == CUOBJ_OP_PUT ? CUOBJ_PUT : CUOBJ_GET, out, cap);
}

const vgw_client_ops_t kClientOps = {
    "cuobj", client_destroy, client_alloc, client_free, client_reg, client_dereg,
    mr_rkey, mr_addr,        mr_size,      mr_kind,     client_token,
};

} // namespace

void *vgw_cuobj::client_create(const rdma_host_client_config_t *cfg) {
  (void)cfg; // device, port and DC key come from the library's configuration (cuobj.json)
  auto *c = new (std::nothrow) VendorClient;
  if (c == nullptr) return host->fail(-ENOMEM, "out of memory"), nullptr;
  try {
    c->cli = new cuObjClient(c->ops, static_cast<cuObjProto_t>(kProtoDcV1));
  } catch (...) {
    delete c;
    return host->fail(-ENODEV, "cuObjClient constructor threw"), nullptr;
  }
  if (!c->cli->isConnected()) {
    client_destroy(c);
    return host->fail(-ENODEV, "cuObjClient is not connected: no usable RDMA device, or the cuObject "
                      "configuration (CUOBJ_ENV_PATH_JSON / /etc/cuobj.json) is missing allow_compat_mode on a "
                      "host without GPUDirect"), nullptr;
  }
  return c;
}

const vgw_client_ops_t *vgw_cuobj::client_ops() { return &kClientOps; }
