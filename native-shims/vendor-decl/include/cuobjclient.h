// cuobjclient.h — DECLARATIONS WRITTEN BY THIS PROJECT from NVIDIA's public cuObject API documentation, not NVIDIA's header.
// C++ (cuObjClient is a C++ class). Used only for the compile check of src/cuobj/ (see
// ../README.md). ASSUMED: cuMemObj* are members of cuObjClient (as public code calls them:
// client->cuMemObjGetDescriptor(ptr, size)).
#ifndef VGW_DECL_CUOBJCLIENT_H
#define VGW_DECL_CUOBJCLIENT_H

#include <sys/types.h>

#include "cuobjrdma.h"

typedef struct cufileRDMAInfo {
  int version;
  int desc_len;
  const char *desc_str;
} cufileRDMAInfo_t;

typedef struct CUObjIOOps {
  ssize_t (*get)(const void *handle, char *ptr, size_t size, loff_t offset, const cufileRDMAInfo_t *info);
  ssize_t (*put)(const void *handle, const char *ptr, size_t size, loff_t offset, const cufileRDMAInfo_t *info);
} CUObjOps_t;

class cuObjClient {
 public:
  cuObjClient(CUObjOps_t &ops, cuObjProto_t proto = CUOBJ_PROTO_RDMA_DC_V1);
  ~cuObjClient();
  bool isConnected();

  cuObjErr_t cuMemObjGetDescriptor(void *ptr, size_t size); // system or CUDA device memory
  cuObjErr_t cuMemObjPutDescriptor(void *ptr);
  cuObjErr_t cuMemObjGetRDMAToken(void *ptr, size_t size, size_t buffer_offset, cuObjOpType_t op,
                                  char **desc_str_out);
  cuObjErr_t cuMemObjPutRDMAToken(char *desc_str);

  ssize_t cuObjGet(void *ctx, void *ptr, size_t size, loff_t offset = 0, loff_t buf_offset = 0);
  ssize_t cuObjPut(void *ctx, void *ptr, size_t size, loff_t offset = 0, loff_t buf_offset = 0);
  static void *getCtx(const void *handle);
  static cuObjMemoryType_t getMemoryType(const void *ptr);
};

#endif
