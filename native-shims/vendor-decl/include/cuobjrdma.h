// cuobjrdma.h — DECLARATIONS WRITTEN BY THIS PROJECT from NVIDIA's public cuObject API documentation, not NVIDIA's header.
// C++ (the vendor API is C++). Common enums, tunables and types shared by cuobjserver.h and
// cuobjclient.h, used only for the compile check of src/cuobj/ (see ../README.md).
#ifndef VGW_DECL_CUOBJRDMA_H
#define VGW_DECL_CUOBJRDMA_H

#include <cstddef>
#include <cstdint>
#include <sys/types.h>

#if __has_include(<infiniband/verbs.h>)
#include <infiniband/verbs.h>
#else
enum ibv_wc_status { IBV_WC_SUCCESS = 0 };
#endif

typedef enum cuObjErr_enum { CU_OBJ_SUCCESS = 0, CU_OBJ_FAIL = 1 } cuObjErr_t;
typedef enum cuObjProto_enum { CUOBJ_PROTO_RDMA_DC_V1 = 1001 } cuObjProto_t;
typedef enum cuObjOpType_enum { CUOBJ_GET = 0, CUOBJ_PUT = 1, CUOBJ_INVALID = 9999 } cuObjOpType_t;
typedef enum cuObjMemoryType_enum {
  CUOBJ_MEMORY_SYSTEM = 0,
  CUOBJ_MEMORY_CUDA_MANAGED = 1,
  CUOBJ_MEMORY_CUDA_DEVICE = 2,
  CUOBJ_MEMORY_UNKNOWN = 3,
  CUOBJ_MEMORY_INVALID = 4
} cuObjMemoryType_t;

#define CUOBJ_LOG_PATH_INFO 0x1
#define CUOBJ_LOG_PATH_DEBUG 0x2
#define CUOBJ_LOG_PATH_ERROR 0x4

struct rdma_buffer; // opaque registration

typedef struct cuObjAsyncEvent {
  void *async_handle;
  ssize_t status;
} cuObjAsyncEvent_t;

// Tunables. Documented: the class, its defaults and "setters setNumDcis, setCqDepth, ...".
// ASSUMED: the remaining setter names follow the same pattern, and the parameter types.
class cuObjRDMATunableParam {
 public:
  cuObjRDMATunableParam();
  void setNumDcis(unsigned n);
  void setCqDepth(unsigned n);
  void setDcKey(uint64_t key);          // ASSUMED name
  void setServiceLevel(unsigned sl);    // ASSUMED name
  void setTimeout(unsigned t);          // ASSUMED name
  void setHopLimit(unsigned h);         // ASSUMED name
  void setPkeyIndex(unsigned p);        // ASSUMED name
  void setMaxSge(unsigned n);           // ASSUMED name
  void setDelayInterval(unsigned ns);   // ASSUMED name
  void setDelayMode(unsigned m);        // ASSUMED name
  void setQpResetOnFailure(bool on);    // ASSUMED name
  void setRetryCnt(unsigned n);         // ASSUMED name
  void setTrafficClass(unsigned tc);    // ASSUMED name
  void setMaxRdAtomic(unsigned n);      // ASSUMED name

 private:
  unsigned char opaque_[128];
};
// The document also writes the constructor parameter as `cuObjRDMATunable`. ASSUMED alias.
typedef cuObjRDMATunableParam cuObjRDMATunable;

#endif
