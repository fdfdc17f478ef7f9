// cuobjserver.h — DECLARATIONS WRITTEN BY THIS PROJECT from NVIDIA's public cuObject API documentation, not NVIDIA's header.
// C++ (cuObjServer is a C++ class). Two ABIs, picked with VGW_DECL_CUOBJ_SERVER_API (1 or 2):
//   1.x: a base class with initRDMAConfigParams, setTelemFlags(unsigned);
//   2.x: no base class, tunables only through the constructor, setTelemFlags(log, op), and the
//        transfer calls may also return -EPROTO (2.0) / -EBUSY (2.1).
// Used only for the compile check of src/cuobj/ (see ../README.md).
#ifndef VGW_DECL_CUOBJSERVER_H
#define VGW_DECL_CUOBJSERVER_H

#include <ostream>
#include <string>
#include <vector>

#include "cuobjrdma.h"

#ifndef VGW_DECL_CUOBJ_SERVER_API
#define VGW_DECL_CUOBJ_SERVER_API 2
#endif

#if VGW_DECL_CUOBJ_SERVER_API == 1
class cuObjServerBase {
 public:
  virtual ~cuObjServerBase();
  int initRDMAConfigParams(const cuObjRDMATunableParam &params);
};
#define VGW_DECL_SERVER_BASE : public cuObjServerBase
#else
#define VGW_DECL_SERVER_BASE
#endif

struct cuObjSgEntry {
  void *addr;
  size_t size;
};

class cuObjServer VGW_DECL_SERVER_BASE {
 public:
  cuObjServer(const char *ip, unsigned short port, unsigned proto);
  cuObjServer(const char *ip, unsigned short port, unsigned proto, cuObjRDMATunable params);
  ~cuObjServer();
  bool isConnected();

  void *allocHostBuffer(size_t size); // page aligned; free with free()
  struct rdma_buffer *registerBuffer(void *ptr, size_t size);
  struct rdma_buffer *registerBuffer(const std::vector<cuObjSgEntry> &sg); // at most 10 entries
  void deRegisterBuffer(struct rdma_buffer *buf);

  // RDMA WRITE to the client (S3 GET) / RDMA READ from the client (S3 PUT); <= 1 GiB per call.
  ssize_t handleGetObject(const std::string &key, struct rdma_buffer *local, uint64_t remote_buf_start,
                          size_t size, const std::string &rdma_descr, uint16_t channel = 0,
                          uint64_t local_offset = 0, ibv_wc_status *status = nullptr,
                          void *async_handle = nullptr);
  ssize_t handlePutObject(const std::string &key, struct rdma_buffer *local, uint64_t remote_buf_start,
                          size_t size, const std::string &rdma_descr, uint16_t channel = 0,
                          uint64_t local_offset = 0, ibv_wc_status *status = nullptr,
                          void *async_handle = nullptr);

  int poll(cuObjAsyncEvent_t *events, int max_events, uint16_t channel);
  uint16_t allocateChannelId(); // 65535 when none is free
  void freeChannelId(uint16_t id);

  static void setupTelemetry(bool use_otel, std::ostream *os);
  static void shutdownTelemetry();
#if VGW_DECL_CUOBJ_SERVER_API == 1
  static void setTelemFlags(unsigned flags);
#else
  static void setTelemFlags(unsigned log_flags, unsigned log_op_flags);
#endif
};

#endif
